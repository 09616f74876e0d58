#include "http/websocket_hub.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <functional>

#include "http/ws_frame.hpp"

namespace docs::core {

using Clock = std::chrono::steady_clock;

// What one received message costs while it waits for the session (the task around it).
constexpr std::size_t kPendingOverhead = 128;

class WsConnection final : public WebSocketConnection, public std::enable_shared_from_this<WsConnection> {
 public:
  WsConnection(WebSocketHub& hub, std::uint64_t id, int fd, std::string remote, WebSocketOptions options,
               std::function<void()> onFinished)
      : hub_(hub),
        id_(id),
        fd_(fd),
        remote_(std::move(remote)),
        options_(options),
        parser_(unauthenticatedLimit(options)),
        onFinished_(std::move(onFinished)) {}
  ~WsConnection() override {
    if (fd_ >= 0) ::close(fd_);
    if (onFinished_) onFinished_();  // never attached
  }

  static std::size_t unauthenticatedLimit(const WebSocketOptions& options) {
    if (options.maxUnauthenticatedMessageBytes == 0) return options.maxMessageBytes;
    return std::min(options.maxUnauthenticatedMessageBytes, options.maxMessageBytes);
  }

  std::uint64_t id() const override { return id_; }
  const std::string& remoteAddress() const override { return remote_; }
  bool open() const override {
    std::lock_guard lock(mutex_);
    return fd_ >= 0 && !closeSent_;
  }
  void markAuthenticated() override { authenticated_ = true; }
  void sendBinary(std::string_view data) override { sendFrame(encodeWsFrame(WsOpcode::Binary, data)); }
  void sendText(std::string_view data) override { sendFrame(encodeWsFrame(WsOpcode::Text, data)); }
  void sendBinaryBatch(const std::vector<std::string_view>& messages) override {
    if (messages.empty()) return;
    std::lock_guard lock(mutex_);
    if (fd_ < 0 || closeSent_) return;
    for (auto message : messages) {
      std::string frame = encodeWsFrame(WsOpcode::Binary, message);
      if (!fitsLocked(frame.size())) return tooSlowLocked();
      queueLocked(std::move(frame));
    }
    flushLocked();
  }
  void close(std::uint16_t code, std::string_view reason) override {
    std::lock_guard lock(mutex_);
    closeLocked(code, reason);
  }

  int fd() const { return fd_; }

  // Event-loop side: bytes are readable (or the session caught up with what was read).
  void onReadable() {
    if (!drainParser()) return;
    char buffer[65536];
    // A turn reads at most 1 MiB: a fast sender does not hold the loop from the others
    // (epoll reports the rest again).
    for (int turn = 0; turn < 16; ++turn) {
      if (readPaused_) return;
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) {
        heard_ = true;
        // After our close frame nothing the peer sends matters: read and drop it.
        if (closing_) continue;
        parser_.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
        if (!drainParser()) return;
        continue;
      }
      if (n == 0) {
        finish(closeCode_.load() ? closeCode_.load() : std::uint16_t{1006});
        return;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) finish(1006);
      return;
    }
  }

  void onWritable() {
    std::lock_guard lock(mutex_);
    flushLocked();
  }

  void onHangup() { finish(closeCode_.load() ? closeCode_.load() : std::uint16_t{1006}); }

  // Event-loop side: one of this connection's deadlines came.
  void onTimer(WebSocketHub::TimerKind kind) {
    switch (kind) {
      case WebSocketHub::TimerKind::AuthDeadline:
        if (!authenticated_ && open()) {
          hub_.logLimit("authentication deadline", remote_, id_);
          close(1008, "Authentication timeout");
        }
        return;
      case WebSocketHub::TimerKind::Ping: {
        std::lock_guard lock(mutex_);
        if (fd_ < 0 || closeSent_) return;
        // A peer we stopped reading (its messages wait for the session) is not idle.
        if (pingOutstanding_ && !heard_ && !readPaused_) {
          hub_.logLimit("no answer to ping", remote_, id_);
          return closeLocked(1008, "No answer to ping");
        }
        heard_ = false;
        pingOutstanding_ = true;
        std::string ping = encodeWsFrame(WsOpcode::Ping, "");
        if (!fitsLocked(ping.size())) return tooSlowLocked();
        queueLocked(std::move(ping));
        flushLocked();
        hub_.addTimer(Clock::now() + std::chrono::milliseconds(options_.pingIntervalMs), id_, kind);
        return;
      }
      case WebSocketHub::TimerKind::CloseDeadline:
        finish(closeCode_.load() ? closeCode_.load() : std::uint16_t{1006}, true);
        return;
    }
  }

  // Before the socket joins the event loop, so no message can arrive without a session.
  void attach(std::unique_ptr<WebSocketSession> session) {
    session_ = std::move(session);
    auto now = Clock::now();
    if (options_.authDeadlineMs > 0)
      hub_.addTimer(now + std::chrono::milliseconds(options_.authDeadlineMs), id_,
                    WebSocketHub::TimerKind::AuthDeadline);
    if (options_.pingIntervalMs > 0)
      hub_.addTimer(now + std::chrono::milliseconds(options_.pingIntervalMs), id_, WebSocketHub::TimerKind::Ping);
  }

  void post(std::function<void()> task) {
    std::lock_guard lock(strandMutex_);
    tasks_.push_back(std::move(task));
    if (!scheduled_) {
      scheduled_ = true;
      hub_.scheduleStrand(shared_from_this());
    }
  }

  void runStrand() {
    for (int done = 0; done < 64; ++done) {
      std::function<void()> task;
      {
        std::lock_guard lock(strandMutex_);
        if (tasks_.empty()) {
          scheduled_ = false;
          return;
        }
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
    std::lock_guard lock(strandMutex_);
    hub_.scheduleStrand(shared_from_this());  // more work: yield to other connections
  }

  // Closes the socket and tells the session, once. `reset`: discard what is unsent (RST),
  // for a peer that would not take it.
  void finish(std::uint16_t code, bool reset = false) {
    std::function<void()> release;
    {
      std::lock_guard lock(mutex_);
      if (fd_ < 0) return;
      release = std::move(onFinished_);
      onFinished_ = nullptr;
      if (readPaused_) {
        readPaused_ = false;
        hub_.countPaused(-1);
      }
      ::epoll_ctl(epollFdFor_, EPOLL_CTL_DEL, fd_, nullptr);
      if (reset) {
        linger abortive{1, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
      }
      ::close(fd_);
      fd_ = -1;
      out_.clear();
      queuedBytes_ = 0;
    }
    if (release) release();
    post([self = shared_from_this(), code] {
      if (self->session_) {
        try {
          self->session_->onClose(code);
        } catch (...) {
        }
        self->session_.reset();
      }
    });
    hub_.forget(id_);
  }

  int epollFdFor_ = -1;

 private:
  // Returns false when reading must stop (the connection ended or is paused).
  bool drainParser() {
    for (;;) {
      if (readPaused_) return false;
      parser_.setMaxMessageBytes(authenticated_ ? options_.maxMessageBytes : unauthenticatedLimit(options_));
      auto event = parser_.next();
      if (!event) return true;
      switch (event->kind) {
        case WsEvent::Kind::Message: {
          auto data = std::make_shared<std::string>(std::move(event->data));
          bool binary = event->binary;
          std::size_t cost = data->size() + kPendingOverhead;
          pendingBytes_ += cost;
          post([self = shared_from_this(), data, binary, cost] {
            if (self->session_) {
              try {
                self->session_->onMessage(*data, binary);
              } catch (const std::exception&) {
                self->close(1011, "internal error");
              }
            }
            self->handled(cost);
          });
          if (pendingBytes_ > options_.maxPendingBytes) pause();
          break;
        }
        case WsEvent::Kind::Ping: sendFrame(encodeWsFrame(WsOpcode::Pong, event->data)); break;
        case WsEvent::Kind::Pong: break;
        case WsEvent::Kind::Close: {
          std::uint16_t code = event->code;
          {
            std::lock_guard lock(mutex_);
            if (!closeSent_) {
              closeCode_ = code;
              closeLocked(code == 1005 ? 1000 : code, "");
            }
          }
          closeCode_ = code;
          return true;  // wait for EOF after our close frame goes out
        }
        case WsEvent::Kind::Error:
          if (event->code == 1009)
            hub_.logLimit(authenticated_ ? "message size" : "message size before authentication", remote_, id_);
          close(event->code, event->data);
          return true;
      }
    }
  }

  // Event loop: the session is this far behind; stop reading until it catches up.
  void pause() {
    std::lock_guard lock(mutex_);
    if (fd_ < 0 || readPaused_ || pendingBytes_ <= options_.maxPendingBytes) return;
    readPaused_ = true;
    hub_.countPaused(1);
    updateEventsLocked();
  }

  // Strand: a message was handled; read again once half the allowance is free.
  void handled(std::size_t cost) {
    std::size_t left = pendingBytes_ -= cost;
    if (!readPaused_ || left > options_.maxPendingBytes / 2) return;
    {
      std::lock_guard lock(mutex_);
      if (!readPaused_ || pendingBytes_ > options_.maxPendingBytes / 2) return;
      readPaused_ = false;
      hub_.countPaused(-1);
      if (fd_ < 0) return;
      updateEventsLocked();
    }
    hub_.requestRead(id_);  // frames may wait in the parser with nothing new to read
  }

  void updateEventsLocked() {
    if (fd_ < 0) return;
    epoll_event event{};
    event.events = (readPaused_ ? 0u : EPOLLIN | EPOLLRDHUP) | (writeArmed_ ? EPOLLOUT : 0u);
    event.data.u64 = id_;
    ::epoll_ctl(epollFdFor_, EPOLL_CTL_MOD, fd_, &event);
  }

  // A frame may be queued: the queue stays under the bound, or it is the only frame
  // (what waits is written out first, as far as the socket takes it).
  bool fitsLocked(std::size_t size) {
    auto fits = [&] { return out_.empty() || queuedBytes_ + size <= options_.maxQueuedBytes; };
    if (fits()) return true;
    flushLocked();
    return fd_ >= 0 && fits();
  }

  // The peer reads slower than we send: drop what waits (except a frame half written),
  // say why, and reset the socket if it does not take even that within the close timeout.
  void tooSlowLocked() {
    if (fd_ < 0 || closeSent_) return;
    hub_.logLimit("outgoing queue", remote_, id_);
    while (out_.size() > (outOffset_ > 0 ? 1u : 0u)) {
      queuedBytes_ -= out_.back().size();
      out_.pop_back();
    }
    closeLocked(1013, "Too slow to read");
  }

  void closeLocked(std::uint16_t code, std::string_view reason) {
    if (fd_ < 0 || closeSent_) return;
    closeSent_ = true;
    closing_ = true;
    if (!closeCode_) closeCode_ = code;
    queueLocked(encodeWsClose(code, reason));
    shutdownAfterFlush_ = true;
    hub_.addTimer(Clock::now() + std::chrono::milliseconds(options_.closeTimeoutMs), id_,
                  WebSocketHub::TimerKind::CloseDeadline);
    flushLocked();
  }

  void sendFrame(std::string frame) {
    std::lock_guard lock(mutex_);
    if (fd_ < 0 || closeSent_) return;
    if (!fitsLocked(frame.size())) return tooSlowLocked();
    queueLocked(std::move(frame));
    flushLocked();
  }

  void queueLocked(std::string frame) {
    queuedBytes_ += frame.size();
    out_.push_back(std::move(frame));
  }

  void flushLocked() {
    // Up to 64 queued frames per system call.
    constexpr std::size_t kMaxIov = 64;
    iovec parts[kMaxIov];
    while (fd_ >= 0 && !out_.empty()) {
      std::size_t count = 0;
      for (auto it = out_.begin(); it != out_.end() && count < kMaxIov; ++it, ++count) {
        std::size_t skip = count == 0 ? outOffset_ : 0;
        parts[count].iov_base = const_cast<char*>(it->data()) + skip;
        parts[count].iov_len = it->size() - skip;
      }
      msghdr message{};
      message.msg_iov = parts;
      message.msg_iovlen = count;
      ssize_t n = ::sendmsg(fd_, &message, MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          if (!writeArmed_) {
            writeArmed_ = true;
            updateEventsLocked();
          }
          return;
        }
        ::shutdown(fd_, SHUT_RDWR);  // the event loop sees the hangup and finishes
        return;
      }
      auto sent = static_cast<std::size_t>(n);
      while (sent > 0 && !out_.empty()) {
        std::size_t left = out_.front().size() - outOffset_;
        if (sent < left) {
          outOffset_ += sent;
          sent = 0;
          break;
        }
        sent -= left;
        queuedBytes_ -= out_.front().size();
        out_.pop_front();
        outOffset_ = 0;
      }
    }
    if (writeArmed_ && fd_ >= 0) {
      writeArmed_ = false;
      updateEventsLocked();
    }
    if (out_.empty() && shutdownAfterFlush_ && fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }

  WebSocketHub& hub_;
  std::uint64_t id_;
  int fd_;
  std::string remote_;
  WebSocketOptions options_;
  WsFrameParser parser_;  // event-loop thread only
  std::function<void()> onFinished_;
  mutable std::mutex mutex_;
  std::deque<std::string> out_;
  std::size_t outOffset_ = 0;
  std::size_t queuedBytes_ = 0;
  bool writeArmed_ = false;
  bool closeSent_ = false;
  bool shutdownAfterFlush_ = false;
  bool pingOutstanding_ = false;
  std::atomic<bool> closing_{false};     // our close frame is queued: input is dropped
  std::atomic<bool> readPaused_{false};  // changed under mutex_
  std::atomic<bool> authenticated_{false};
  std::atomic<bool> heard_{false};  // bytes arrived since the last ping
  std::atomic<std::size_t> pendingBytes_{0};
  std::atomic<std::uint16_t> closeCode_{0};
  std::mutex strandMutex_;
  std::deque<std::function<void()>> tasks_;
  bool scheduled_ = false;
  std::shared_ptr<WebSocketSession> session_;  // strand only
};

WebSocketHub::WebSocketHub(int workers, std::shared_ptr<Logger> logger)
    : workers_(std::max(1, workers)), logger_(std::move(logger)) {}

WebSocketHub::~WebSocketHub() { stop(); }

void WebSocketHub::start() {
  epollFd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = 0;  // id 0 is the wake-up descriptor
  ::epoll_ctl(epollFd_, EPOLL_CTL_ADD, wakeFd_, &event);
  stopping_ = false;
  loopThread_ = std::thread([this] { eventLoop(); });
  for (int i = 0; i < workers_; ++i) workerThreads_.emplace_back([this] { workerLoop(); });
}

void WebSocketHub::stop() {
  if (epollFd_ < 0) return;
  std::vector<std::shared_ptr<WsConnection>> open;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, connection] : connections_) open.push_back(connection);
  }
  for (auto& connection : open) connection->close(1001, "server shutting down");
  // Give close frames a moment to leave.
  for (int i = 0; i < 20 && connectionCount() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  stopping_ = true;
  wake();
  if (loopThread_.joinable()) loopThread_.join();
  for (auto& connection : open) connection->finish(1001);
  {
    std::lock_guard lock(queueMutex_);
    queueReady_.notify_all();
  }
  // Workers drain queued callbacks (onClose) before they exit.
  for (auto& thread : workerThreads_)
    if (thread.joinable()) thread.join();
  workerThreads_.clear();
  ::close(epollFd_);
  ::close(wakeFd_);
  epollFd_ = wakeFd_ = -1;
}

std::shared_ptr<WebSocketConnection> WebSocketHub::adopt(int fd, std::string remoteAddress, WebSocketOptions options,
                                                         std::function<void()> onFinished) {
  int flags = ::fcntl(fd, F_GETFL, 0);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::uint64_t id = nextId_++;
  auto connection =
      std::make_shared<WsConnection>(*this, id, fd, std::move(remoteAddress), options, std::move(onFinished));
  connection->epollFdFor_ = epollFd_;
  {
    std::lock_guard lock(mutex_);
    connections_[id] = connection;
  }
  return connection;
}

void WebSocketHub::attach(const std::shared_ptr<WebSocketConnection>& connection,
                          std::unique_ptr<WebSocketSession> session) {
  auto& ws = static_cast<WsConnection&>(*connection);
  ws.attach(std::move(session));
  // Only now does the socket join the event loop: frames already in the kernel buffer
  // are read once it does, after the session exists.
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP;
  event.data.u64 = ws.id();
  ::epoll_ctl(epollFd_, EPOLL_CTL_ADD, ws.fd(), &event);
}

std::size_t WebSocketHub::connectionCount() const {
  std::lock_guard lock(mutex_);
  return connections_.size();
}

void WebSocketHub::logLimit(const char* limit, const std::string& remote, std::uint64_t id) {
  if (logger_) logger_->info("websocket closed by a limit", {{"limit", limit}, {"remote", remote}, {"connection", id}});
}

std::size_t WebSocketHub::pausedCount() const { return static_cast<std::size_t>(std::max(0L, paused_.load())); }

std::shared_ptr<WsConnection> WebSocketHub::find(std::uint64_t id) const {
  std::lock_guard lock(mutex_);
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second;
}

void WebSocketHub::wake() {
  std::uint64_t one = 1;
  (void)!::write(wakeFd_, &one, sizeof one);
}

void WebSocketHub::addTimer(std::chrono::steady_clock::time_point at, std::uint64_t id, TimerKind kind) {
  bool earliest = false;
  {
    std::lock_guard lock(timersMutex_);
    earliest = timers_.empty() || at < timers_.top().at;
    timers_.push({at, id, kind});
  }
  if (earliest) wake();  // the loop may be waiting longer than that
}

void WebSocketHub::requestRead(std::uint64_t id) {
  {
    std::lock_guard lock(timersMutex_);
    readRequests_.push_back(id);
  }
  wake();
}

int WebSocketHub::runTimers() {
  for (;;) {
    Timer due;
    {
      std::lock_guard lock(timersMutex_);
      if (timers_.empty()) return 500;
      auto now = std::chrono::steady_clock::now();
      if (timers_.top().at > now) {
        auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(timers_.top().at - now).count() + 1;
        return static_cast<int>(std::min<long long>(wait, 500));
      }
      due = timers_.top();
      timers_.pop();
    }
    if (auto connection = find(due.id)) connection->onTimer(due.kind);
  }
}

void WebSocketHub::scheduleStrand(std::shared_ptr<WsConnection> connection) {
  std::lock_guard lock(queueMutex_);
  runQueue_.push_back(std::move(connection));
  queueReady_.notify_one();
}

void WebSocketHub::forget(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  connections_.erase(id);
}

void WebSocketHub::eventLoop() {
  epoll_event events[256];
  while (!stopping_) {
    int n = ::epoll_wait(epollFd_, events, 256, runTimers());
    for (int i = 0; i < n; ++i) {
      std::uint64_t id = events[i].data.u64;
      if (id == 0) {
        std::uint64_t value;
        (void)!::read(wakeFd_, &value, sizeof value);
        std::vector<std::uint64_t> reads;
        {
          std::lock_guard lock(timersMutex_);
          reads.swap(readRequests_);
        }
        for (auto readId : reads)
          if (auto connection = find(readId)) connection->onReadable();
        continue;
      }
      auto connection = find(id);
      if (!connection) continue;
      std::uint32_t flags = events[i].events;
      if (flags & EPOLLOUT) connection->onWritable();
      if (flags & (EPOLLIN | EPOLLRDHUP)) connection->onReadable();
      else if (flags & (EPOLLHUP | EPOLLERR)) connection->onHangup();
    }
  }
}

void WebSocketHub::workerLoop() {
  for (;;) {
    std::shared_ptr<WsConnection> connection;
    {
      std::unique_lock lock(queueMutex_);
      queueReady_.wait(lock, [&] { return stopping_ || !runQueue_.empty(); });
      if (runQueue_.empty()) return;
      connection = std::move(runQueue_.front());
      runQueue_.pop_front();
    }
    connection->runStrand();
  }
}

}  // namespace docs::core
