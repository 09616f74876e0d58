#pragma once
// A minimal blocking WebSocket client for tests (RFC 6455, masked frames).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace docs::test {

struct WsFrame {
  std::uint8_t opcode = 0;
  std::string payload;
};

class WsClient {
 public:
  WsClient() = default;
  ~WsClient();
  WsClient(WsClient&& other) noexcept : fd_(other.fd_), buffer_(std::move(other.buffer_)) { other.fd_ = -1; }
  WsClient& operator=(WsClient&&) = delete;

  // Connects and completes the handshake; false on any failure.
  bool connect(int port, const std::string& path);
  bool send(std::uint8_t opcode, const std::string& payload, bool fin = true);
  bool sendText(const std::string& text) { return send(1, text); }
  bool sendBinary(const std::string& data) { return send(2, data); }
  // Sends raw bytes (for malformed-frame tests).
  bool sendRaw(const std::string& bytes);
  std::optional<WsFrame> receive(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // True when the server closed the TCP connection within the timeout.
  bool waitForEof(std::chrono::milliseconds timeout);
  void close();
  int fd() const { return fd_; }

 private:
  bool fill(std::chrono::steady_clock::time_point deadline);
  int fd_ = -1;
  std::string buffer_;
};

// Builds a masked client frame.
std::string maskedFrame(std::uint8_t opcode, const std::string& payload, bool fin = true);

}  // namespace docs::test
