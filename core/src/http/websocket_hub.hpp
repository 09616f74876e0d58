#pragma once
// Serves upgraded WebSocket connections from one epoll thread, so an idle connection
// costs a few hundred bytes and no thread. Callbacks run on a small worker pool, in
// order per connection (a strand per connection).

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "docs/websocket.hpp"
#include "docs/logger.hpp"

namespace docs::core {

class WsConnection;

class WebSocketHub {
 public:
  WebSocketHub(int workers, std::shared_ptr<Logger> logger);
  ~WebSocketHub();

  void start();
  // Closes every connection with 1001 (going away) and stops the threads.
  void stop();

  // Takes ownership of a connected, handshaken socket descriptor. Nothing is read from it
  // until attach().
  std::shared_ptr<WebSocketConnection> adopt(int fd, std::string remoteAddress, WebSocketOptions options);
  // Binds the plugin's session (nullptr: messages are dropped) and starts reading.
  void attach(const std::shared_ptr<WebSocketConnection>& connection, std::unique_ptr<WebSocketSession> session);

  std::size_t connectionCount() const;

  // Internal: used by connections.
  void scheduleStrand(std::shared_ptr<WsConnection> connection);
  void wantWrite(WsConnection& connection, bool enable);
  void forget(std::uint64_t id);

 private:
  void eventLoop();
  void workerLoop();

  int epollFd_ = -1;
  int wakeFd_ = -1;
  int workers_;
  std::shared_ptr<Logger> logger_;
  std::atomic<bool> stopping_{false};
  std::thread loopThread_;
  std::vector<std::thread> workerThreads_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::shared_ptr<WsConnection>> connections_;
  std::mutex queueMutex_;
  std::condition_variable queueReady_;
  std::deque<std::shared_ptr<WsConnection>> runQueue_;
  std::atomic<std::uint64_t> nextId_{1};
};

}  // namespace docs::core
