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

class WsConnection final : public WebSocketConnection, public std::enable_shared_from_this<WsConnection> {
 public:
  WsConnection(WebSocketHub& hub, std::uint64_t id, int fd, std::string remote, WebSocketOptions options)
      : hub_(hub), id_(id), fd_(fd), remote_(std::move(remote)), options_(options),
        parser_(options.maxMessageBytes) {}
  ~WsConnection() override {
    if (fd_ >= 0) ::close(fd_);
  }

  std::uint64_t id() const override { return id_; }
  const std::string& remoteAddress() const override { return remote_; }
  bool open() const override {
    std::lock_guard lock(mutex_);
    return fd_ >= 0 && !closeSent_;
  }
  void sendBinary(std::string_view data) override { sendFrame(encodeWsFrame(WsOpcode::Binary, data)); }
  void sendText(std::string_view data) override { sendFrame(encodeWsFrame(WsOpcode::Text, data)); }
  void sendBinaryBatch(const std::vector<std::string_view>& messages) override {
    if (messages.empty()) return;
    std::lock_guard lock(mutex_);
    if (fd_ < 0 || closeSent_) return;
    for (auto message : messages) {
      std::string frame = encodeWsFrame(WsOpcode::Binary, message);
      if (queuedBytes_ + frame.size() > options_.maxQueuedBytes) {
        closeSent_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        return;
      }
      queueLocked(std::move(frame));
    }
    flushLocked();
  }
  void close(std::uint16_t code, std::string_view reason) override {
    {
      std::lock_guard lock(mutex_);
      if (fd_ < 0 || closeSent_) return;
      closeSent_ = true;
      closeCode_ = code;
      queueLocked(encodeWsClose(code, reason));
      shutdownAfterFlush_ = true;
      flushLocked();
    }
  }

  int fd() const { return fd_; }

  // Event-loop side: bytes are readable.
  void onReadable() {
    char buffer[65536];
    for (;;) {
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) {
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

  // Before the socket joins the event loop, so no message can arrive without a session.
  void attach(std::unique_ptr<WebSocketSession> session) { session_ = std::move(session); }

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

  // Closes the socket and tells the session, once.
  void finish(std::uint16_t code) {
    {
      std::lock_guard lock(mutex_);
      if (fd_ < 0) return;
      ::epoll_ctl(epollFdFor_, EPOLL_CTL_DEL, fd_, nullptr);
      ::close(fd_);
      fd_ = -1;
    }
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
  // Returns false when the connection ended.
  bool drainParser() {
    while (auto event = parser_.next()) {
      switch (event->kind) {
        case WsEvent::Kind::Message: {
          auto data = std::make_shared<std::string>(std::move(event->data));
          bool binary = event->binary;
          post([self = shared_from_this(), data, binary] {
            if (!self->session_) return;
            try {
              self->session_->onMessage(*data, binary);
            } catch (const std::exception&) {
              self->close(1011, "internal error");
            }
          });
          break;
        }
        case WsEvent::Kind::Ping:
          sendFrame(encodeWsFrame(WsOpcode::Pong, event->data));
          break;
        case WsEvent::Kind::Pong:
          break;
        case WsEvent::Kind::Close: {
          std::uint16_t code = event->code;
          {
            std::lock_guard lock(mutex_);
            if (!closeSent_) {
              closeSent_ = true;
              closeCode_ = code;
              queueLocked(encodeWsClose(code == 1005 ? 1000 : code, ""));
              shutdownAfterFlush_ = true;
              flushLocked();
            }
          }
          closeCode_ = code;
          return true;  // wait for EOF after our close frame goes out
        }
        case WsEvent::Kind::Error:
          close(event->code, event->data);
          return true;
      }
    }
    return true;
  }

  void sendFrame(std::string frame) {
    std::lock_guard lock(mutex_);
    if (fd_ < 0 || closeSent_) return;
    if (queuedBytes_ + frame.size() > options_.maxQueuedBytes) {
      // A reader this far behind would hold unbounded memory: drop it.
      closeSent_ = true;
      ::shutdown(fd_, SHUT_RDWR);
      return;
    }
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
            hub_.wantWrite(*this, true);
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
      hub_.wantWrite(*this, false);
    }
    if (out_.empty() && shutdownAfterFlush_ && fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }

  WebSocketHub& hub_;
  std::uint64_t id_;
  int fd_;
  std::string remote_;
  WebSocketOptions options_;
  WsFrameParser parser_;  // event-loop thread only
  mutable std::mutex mutex_;
  std::deque<std::string> out_;
  std::size_t outOffset_ = 0;
  std::size_t queuedBytes_ = 0;
  bool writeArmed_ = false;
  bool closeSent_ = false;
  bool shutdownAfterFlush_ = false;
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
  std::uint64_t one = 1;
  (void)!::write(wakeFd_, &one, sizeof one);
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

std::shared_ptr<WebSocketConnection> WebSocketHub::adopt(int fd, std::string remoteAddress, WebSocketOptions options) {
  int flags = ::fcntl(fd, F_GETFL, 0);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::uint64_t id = nextId_++;
  auto connection = std::make_shared<WsConnection>(*this, id, fd, std::move(remoteAddress), options);
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

void WebSocketHub::scheduleStrand(std::shared_ptr<WsConnection> connection) {
  std::lock_guard lock(queueMutex_);
  runQueue_.push_back(std::move(connection));
  queueReady_.notify_one();
}

void WebSocketHub::wantWrite(WsConnection& connection, bool enable) {
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP | (enable ? EPOLLOUT : 0u);
  event.data.u64 = connection.id();
  ::epoll_ctl(epollFd_, EPOLL_CTL_MOD, connection.fd(), &event);
}

void WebSocketHub::forget(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  connections_.erase(id);
}

void WebSocketHub::eventLoop() {
  epoll_event events[256];
  while (!stopping_) {
    int n = ::epoll_wait(epollFd_, events, 256, 500);
    for (int i = 0; i < n; ++i) {
      std::uint64_t id = events[i].data.u64;
      if (id == 0) {
        std::uint64_t value;
        (void)!::read(wakeFd_, &value, sizeof value);
        continue;
      }
      std::shared_ptr<WsConnection> connection;
      {
        std::lock_guard lock(mutex_);
        auto it = connections_.find(id);
        if (it != connections_.end()) connection = it->second;
      }
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
