#pragma once
// WebSocket endpoints. After the handshake a connection is served by the core's event
// loop, so an idle socket holds no thread. Callbacks for one connection run in order,
// one at a time, on the core's worker threads; they may block briefly (a database write).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

class Request;

// The core's side of a connection; safe to use from any thread and after close.
class WebSocketConnection {
 public:
  virtual ~WebSocketConnection();
  virtual std::uint64_t id() const = 0;
  virtual void sendBinary(std::string_view data) = 0;
  virtual void sendText(std::string_view data) = 0;
  // Several binary messages in order, written together (one system call where they fit):
  // fan-out of many small messages costs far less than one sendBinary each.
  virtual void sendBinaryBatch(const std::vector<std::string_view>& messages) = 0;
  // Sends a close frame and closes; later sends are dropped.
  virtual void close(std::uint16_t code, std::string_view reason) = 0;
  virtual bool open() const = 0;
  virtual const std::string& remoteAddress() const = 0;
};

// The plugin's side of one connection.
class WebSocketSession {
 public:
  virtual ~WebSocketSession();
  virtual void onMessage(std::string_view data, bool binary) = 0;
  // Called once, whoever closed; the connection can no longer send.
  virtual void onClose(std::uint16_t code) = 0;
};

// Called during the upgrade request. Return nullptr (or throw HttpError) to refuse.
using WebSocketAcceptor = std::function<std::unique_ptr<WebSocketSession>(
    const Request& request, std::shared_ptr<WebSocketConnection> connection)>;

struct WebSocketOptions {
  std::size_t maxMessageBytes = 16 << 20;   // larger messages close the socket with 1009
  std::size_t maxQueuedBytes = 64 << 20;    // a reader this far behind is disconnected
};

}  // namespace docs
