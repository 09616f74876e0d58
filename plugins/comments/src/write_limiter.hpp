#pragma once
// Comment writes per user on this node: a token bucket refilled at `perMinute` a minute,
// holding at most `perMinute`. Keeps one account from flooding a page (and its
// mentions' mailboxes); a cluster multiplies the allowance by its nodes.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace docs_comments {

class WriteLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit WriteLimiter(double perMinute) : perMinute_(perMinute) {}
  // Takes one write from the user's bucket; 0 when allowed, else the seconds to wait.
  int take(const std::string& user, Clock::time_point now = Clock::now());

 private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point at;
  };
  double perMinute_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
  Clock::time_point lastSweep_{};
};

}  // namespace docs_comments
