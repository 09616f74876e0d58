#pragma once
// RFC 6455 framing for the server side: an incremental parser of client frames (masked,
// possibly fragmented, control frames interleaved) and an encoder of server frames.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docs::core {

enum class WsOpcode : std::uint8_t { Continuation = 0, Text = 1, Binary = 2, Close = 8, Ping = 9, Pong = 10 };

struct WsEvent {
  enum class Kind { Message, Ping, Pong, Close, Error } kind;
  bool binary = false;
  std::string data;        // message, ping/pong payload, close reason
  std::uint16_t code = 0;  // close code received, or the code to close with on Error
};

class WsFrameParser {
 public:
  explicit WsFrameParser(std::size_t maxMessageBytes) : maxMessageBytes_(maxMessageBytes) {}
  // Bytes after a failure are dropped: a peer that keeps sending holds no memory.
  void feed(std::string_view bytes) {
    if (!failed_) buffer_.append(bytes.data(), bytes.size());
  }
  // Applies from the next frame on (a connection that authenticated may send more).
  void setMaxMessageBytes(std::size_t bytes) { maxMessageBytes_ = bytes; }
  bool failed() const { return failed_; }
  // The next complete event, or nullopt when more bytes are needed. After an Error
  // event the parser stays failed.
  std::optional<WsEvent> next();
  std::size_t bufferedBytes() const { return buffer_.size() - offset_; }

 private:
  std::optional<WsEvent> fail(std::uint16_t code, std::string reason);
  std::string buffer_;
  std::size_t offset_ = 0;
  std::size_t maxMessageBytes_;
  bool failed_ = false;
  bool inMessage_ = false;
  bool messageBinary_ = false;
  std::string message_;
};

std::string encodeWsFrame(WsOpcode opcode, std::string_view payload);
std::string encodeWsClose(std::uint16_t code, std::string_view reason);
bool isValidUtf8(std::string_view text);

}  // namespace docs::core
