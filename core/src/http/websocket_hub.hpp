#pragma once
// Serves upgraded WebSocket connections from one epoll thread, so an idle connection
// costs a few hundred bytes and no thread. Callbacks run on a small worker pool, in
// order per connection (a strand per connection). The event loop also keeps each
// connection's deadlines (authentication, pings, closing) in one timer heap, and bounds
// what a connection may hold: its outgoing queue, and the received messages its session
// has not handled yet (past that the socket is not read: TCP pushes back).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>
#include <unordered_map>
#include <vector>

#include "docs/logger.hpp"
#include "docs/websocket.hpp"

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
  // until attach(). `onFinished` runs once when the socket is closed (releases a slot).
  std::shared_ptr<WebSocketConnection> adopt(int fd, std::string remoteAddress, WebSocketOptions options,
                                             std::function<void()> onFinished = {});
  // Binds the plugin's session (nullptr: messages are dropped) and starts reading.
  void attach(const std::shared_ptr<WebSocketConnection>& connection, std::unique_ptr<WebSocketSession> session);

  std::size_t connectionCount() const;
  // Connections not read from now because their sessions are behind (tests, metrics).
  std::size_t pausedCount() const;

  // Internal: used by connections.
  void scheduleStrand(std::shared_ptr<WsConnection> connection);
  void forget(std::uint64_t id);
  enum class TimerKind { AuthDeadline, Ping, CloseDeadline };
  void addTimer(std::chrono::steady_clock::time_point at, std::uint64_t id, TimerKind kind);
  // Asks the event loop to read a connection again (its session caught up).
  void requestRead(std::uint64_t id);
  void countPaused(int delta) { paused_ += delta; }
  // One line per socket a bound closed: which bound, and the peer.
  void logLimit(const char* limit, const std::string& remote, std::uint64_t id);

 private:
  void eventLoop();
  void workerLoop();
  void wake();
  // Runs due timers; returns the wait until the next one (at most 500 ms).
  int runTimers();
  std::shared_ptr<WsConnection> find(std::uint64_t id) const;

  struct Timer {
    std::chrono::steady_clock::time_point at;
    std::uint64_t id;
    TimerKind kind;
    bool operator>(const Timer& other) const { return at > other.at; }
  };
  std::mutex timersMutex_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  std::vector<std::uint64_t> readRequests_;  // guarded by timersMutex_
  std::atomic<long> paused_{0};

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
