#include "http/header_deadlines.hpp"

namespace docs::core {

HeaderDeadlines::HeaderDeadlines() : thread_([this] { loop(); }) {}

HeaderDeadlines::~HeaderDeadlines() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  thread_.join();
}

void HeaderDeadlines::arm(const Poco::Net::StreamSocket& socket, std::chrono::milliseconds timeout) {
  std::lock_guard lock(mutex_);
  auto& entry = entries_[socket.impl()];
  entry.socket = socket;
  entry.deadline = std::chrono::steady_clock::now() + timeout;
  entry.armed = true;
}

void HeaderDeadlines::disarm(Poco::Net::SocketImpl* key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) it->second.armed = false;
}

void HeaderDeadlines::remove(Poco::Net::SocketImpl* key) {
  std::lock_guard lock(mutex_);
  entries_.erase(key);
}

void HeaderDeadlines::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::milliseconds(200));
    auto now = std::chrono::steady_clock::now();
    for (auto& [key, entry] : entries_) {
      if (!entry.armed || now < entry.deadline) continue;
      entry.armed = false;
      try {
        entry.socket.shutdown();  // the blocked read returns; POCO closes the connection
      } catch (...) {
      }
    }
  }
}

}  // namespace docs::core
