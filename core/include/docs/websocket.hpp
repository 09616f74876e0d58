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
  // The peer proved who it is: lifts the limits WebSocketOptions sets on connections that
  // have not (message size, authentication deadline). Call it before answering, so the
  // peer's next messages are read with the larger limit.
  virtual void markAuthenticated() = 0;
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

// Limits of one endpoint's connections. Closes for a limit carry these codes: 1009 (message
// too big), 1008 (authentication deadline, no answer to pings), 1013 (too slow to read).
struct WebSocketOptions {
  std::size_t maxMessageBytes = 16 << 20;  // larger messages close the socket with 1009
  // Outgoing bytes waiting for a peer that does not read: past this the queue is dropped
  // and the socket closed with 1013 (one message larger than this still goes alone).
  std::size_t maxQueuedBytes = 64 << 20;
  // Received messages waiting for the session: past this the socket is not read until the
  // session catches up (TCP pushes back on the peer).
  std::size_t maxPendingBytes = 4 << 20;
  // Until markAuthenticated(): larger messages close with 1009 (0: maxMessageBytes) and,
  // when authDeadlineMs is set, the socket is closed with 1008 once it has passed.
  std::size_t maxUnauthenticatedMessageBytes = 0;
  std::uint32_t authDeadlineMs = 0;
  // A ping frame every pingIntervalMs (0: none); a peer that sent nothing since the last
  // one, not even its pong, is closed with 1008.
  std::uint32_t pingIntervalMs = 0;
  // After a close frame, the time the peer has to close the TCP connection before it is
  // reset (also the time a slow reader has to take the close frame).
  std::uint32_t closeTimeoutMs = 5000;
};

}  // namespace docs
