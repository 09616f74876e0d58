#include "ws_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test_support.hpp"

namespace docs::test {

std::string maskedFrame(std::uint8_t opcode, const std::string& payload, bool fin) {
  std::string frame;
  frame.push_back(static_cast<char>((fin ? 0x80 : 0) | opcode));
  std::size_t n = payload.size();
  if (n < 126) {
    frame.push_back(static_cast<char>(0x80 | n));
  } else if (n <= 0xFFFF) {
    frame.push_back(static_cast<char>(0x80 | 126));
    frame.push_back(static_cast<char>(n >> 8));
    frame.push_back(static_cast<char>(n & 0xFF));
  } else {
    frame.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) frame.push_back(static_cast<char>((static_cast<std::uint64_t>(n) >> (8 * i)) & 0xFF));
  }
  const char mask[4] = {0x12, 0x34, 0x56, 0x78};
  frame.append(mask, 4);
  for (std::size_t i = 0; i < n; ++i) frame.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
  return frame;
}

WsClient::~WsClient() { close(); }

void WsClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool WsClient::connect(int port, const std::string& path) {
  fd_ = connectTo(port);
  if (fd_ < 0) return false;
  std::string request = "GET " + path +
                        " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  if (!sendRaw(request)) return false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (buffer_.find("\r\n\r\n") == std::string::npos)
    if (!fill(deadline)) return false;
  auto end = buffer_.find("\r\n\r\n");
  bool ok = buffer_.rfind("HTTP/1.1 101", 0) == 0;
  buffer_.erase(0, end + 4);
  return ok;
}

bool WsClient::sendRaw(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool WsClient::send(std::uint8_t opcode, const std::string& payload, bool fin) {
  return sendRaw(maskedFrame(opcode, payload, fin));
}

bool WsClient::fill(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
  char chunk[65536];
  ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
  if (n <= 0) return false;
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

std::optional<WsFrame> WsClient::receive(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (buffer_.size() >= 2) {
      auto b1 = static_cast<unsigned char>(buffer_[1]);
      std::uint64_t length = b1 & 0x7F;
      std::size_t header = 2;
      if (length == 126 && buffer_.size() >= 4) {
        length = (static_cast<unsigned char>(buffer_[2]) << 8) | static_cast<unsigned char>(buffer_[3]);
        header = 4;
      } else if (length == 127 && buffer_.size() >= 10) {
        length = 0;
        for (int i = 0; i < 8; ++i) length = (length << 8) | static_cast<unsigned char>(buffer_[2 + i]);
        header = 10;
      } else if (length >= 126) {
        header = 0;
      }
      if (header && buffer_.size() >= header + length) {
        WsFrame frame;
        frame.opcode = static_cast<std::uint8_t>(buffer_[0] & 0x0F);
        frame.payload = buffer_.substr(header, static_cast<std::size_t>(length));
        buffer_.erase(0, header + static_cast<std::size_t>(length));
        return frame;
      }
    }
    if (!fill(deadline)) return std::nullopt;
  }
}

bool WsClient::waitForEof(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char chunk[4096];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return true;
  }
}

}  // namespace docs::test
