#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace docs::ydoc {

using Bytes = std::vector<uint8_t>;

// lib0 binary writer (lib0/encoding.js): the primitives of the Yjs v1 format.
class Encoder {
 public:
  void writeUint8(uint8_t v) { buf_.push_back(v); }
  void writeVarUint(uint64_t v);
  void writeVarInt(int64_t v, bool negativeZero = false);
  void writeVarString(std::string_view utf8);
  void writeVarUint8Array(std::span<const uint8_t> bytes);
  void writeRaw(std::span<const uint8_t> bytes) { buf_.insert(buf_.end(), bytes.begin(), bytes.end()); }
  void writeFloat32(float v);
  void writeFloat64(double v);
  void writeBigInt64(int64_t v);

  const Bytes& bytes() const { return buf_; }
  Bytes take() { return std::move(buf_); }
  size_t size() const { return buf_.size(); }

 private:
  Bytes buf_;
};

// lib0 binary reader. Every read is bounds-checked and throws DecodeError, so a
// hostile update can never read past its buffer or allocate more than its size.
class Decoder {
 public:
  explicit Decoder(std::span<const uint8_t> data) : data_(data) {}

  bool hasContent() const { return pos_ < data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  size_t position() const { return pos_; }

  uint8_t readUint8();
  // Values above 2^53 are rejected like lib0 (MAX_SAFE_INTEGER).
  uint64_t readVarUint();
  // Returns the value; sets negativeZero when the encoding was "-0".
  int64_t readVarInt(bool* negativeZero = nullptr);
  std::string readVarString();
  std::span<const uint8_t> readVarUint8Array();
  std::span<const uint8_t> readBytes(size_t n);
  float readFloat32();
  double readFloat64();
  int64_t readBigInt64();

  // A count of elements that each take at least one byte: rejects counts
  // larger than the rest of the buffer so callers may reserve() safely.
  uint64_t readCount();

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace docs::ydoc
