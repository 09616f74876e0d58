#pragma once
// Requests per minute per key (a user or an address), on this node: a sliding window of
// the last minute's request times. Enough to keep one caller from monopolising the
// search and the model; a cluster multiplies the allowance by its nodes.

#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace docs_rag {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RateLimiter(int perMinute) : perMinute_(perMinute) {}
  // Counts the request and says whether it is within the allowance.
  bool allow(const std::string& key, Clock::time_point now = Clock::now());
  // Seconds until the oldest counted request leaves the window.
  int retryAfterSeconds(const std::string& key, Clock::time_point now = Clock::now());

 private:
  int perMinute_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> recent_;
  Clock::time_point lastSweep_{};
};

}  // namespace docs_rag
