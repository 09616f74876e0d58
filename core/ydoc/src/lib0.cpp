#include "docs/ydoc/lib0.hpp"

#include <bit>
#include <cstring>

#include "docs/ydoc/error.hpp"
#include "docs/ydoc/utf.hpp"

namespace docs::ydoc {
namespace {

constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;

template <typename T>
void writeBigEndian(Encoder& enc, T value) {
  for (int i = static_cast<int>(sizeof(T)) - 1; i >= 0; --i) {
    enc.writeUint8(static_cast<uint8_t>(value >> (i * 8)));
  }
}

}  // namespace

void Encoder::writeVarUint(uint64_t v) {
  while (v > 0x7F) {
    buf_.push_back(static_cast<uint8_t>(0x80 | (v & 0x7F)));
    v >>= 7;
  }
  buf_.push_back(static_cast<uint8_t>(v));
}

void Encoder::writeVarInt(int64_t v, bool negativeZero) {
  const bool negative = v < 0 || (v == 0 && negativeZero);
  uint64_t mag = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  // first byte: continue bit, sign bit, six value bits
  buf_.push_back(static_cast<uint8_t>((mag > 0x3F ? 0x80 : 0) | (negative ? 0x40 : 0) | (mag & 0x3F)));
  mag >>= 6;
  while (mag > 0) {
    buf_.push_back(static_cast<uint8_t>((mag > 0x7F ? 0x80 : 0) | (mag & 0x7F)));
    mag >>= 7;
  }
}

void Encoder::writeVarString(std::string_view utf8) {
  writeVarUint(utf8.size());
  buf_.insert(buf_.end(), utf8.begin(), utf8.end());
}

void Encoder::writeVarUint8Array(std::span<const uint8_t> bytes) {
  writeVarUint(bytes.size());
  writeRaw(bytes);
}

void Encoder::writeFloat32(float v) { writeBigEndian(*this, std::bit_cast<uint32_t>(v)); }
void Encoder::writeFloat64(double v) { writeBigEndian(*this, std::bit_cast<uint64_t>(v)); }
void Encoder::writeBigInt64(int64_t v) { writeBigEndian(*this, static_cast<uint64_t>(v)); }

uint8_t Decoder::readUint8() {
  if (pos_ >= data_.size()) throw DecodeError("unexpected end of update");
  return data_[pos_++];
}

uint64_t Decoder::readVarUint() {
  uint64_t num = 0;
  unsigned shift = 0;
  while (true) {
    const uint8_t r = readUint8();
    if (shift >= 56) throw DecodeError("varUint out of range");
    num |= static_cast<uint64_t>(r & 0x7F) << shift;
    shift += 7;
    if (r < 0x80) break;
    if (num > kMaxSafeInteger) throw DecodeError("varUint out of range");
  }
  if (num > kMaxSafeInteger) throw DecodeError("varUint out of range");
  return num;
}

int64_t Decoder::readVarInt(bool* negativeZero) {
  uint8_t r = readUint8();
  uint64_t num = r & 0x3F;
  const bool negative = (r & 0x40) != 0;
  unsigned shift = 6;
  while (r & 0x80) {
    r = readUint8();
    if (shift >= 56) throw DecodeError("varInt out of range");
    num |= static_cast<uint64_t>(r & 0x7F) << shift;
    shift += 7;
    if (num > kMaxSafeInteger) throw DecodeError("varInt out of range");
  }
  if (negativeZero != nullptr) *negativeZero = negative && num == 0;
  return negative ? -static_cast<int64_t>(num) : static_cast<int64_t>(num);
}

std::span<const uint8_t> Decoder::readBytes(size_t n) {
  if (n > remaining()) throw DecodeError("length beyond the end of the update");
  auto out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::span<const uint8_t> Decoder::readVarUint8Array() { return readBytes(readVarUint()); }

std::string Decoder::readVarString() {
  const auto bytes = readVarUint8Array();
  std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  validateUtf8(s);
  return s;
}

uint64_t Decoder::readCount() {
  const uint64_t n = readVarUint();
  if (n > remaining()) throw DecodeError("element count beyond the end of the update");
  return n;
}

float Decoder::readFloat32() {
  const auto b = readBytes(4);
  uint32_t v = 0;
  for (const uint8_t x : b) v = (v << 8) | x;
  return std::bit_cast<float>(v);
}

double Decoder::readFloat64() {
  const auto b = readBytes(8);
  uint64_t v = 0;
  for (const uint8_t x : b) v = (v << 8) | x;
  return std::bit_cast<double>(v);
}

int64_t Decoder::readBigInt64() {
  const auto b = readBytes(8);
  uint64_t v = 0;
  for (const uint8_t x : b) v = (v << 8) | x;
  return static_cast<int64_t>(v);
}

}  // namespace docs::ydoc
