#include "rate_limiter.hpp"

namespace docs_rag {

namespace {
constexpr auto kWindow = std::chrono::minutes(1);
}

bool RateLimiter::allow(const std::string& key, Clock::time_point now) {
  if (perMinute_ <= 0) return true;  // 0: unlimited
  std::lock_guard lock(mutex_);
  if (now - lastSweep_ > kWindow) {  // forget idle callers now and then
    std::erase_if(recent_, [&](auto& entry) { return entry.second.empty() || now - entry.second.back() > kWindow; });
    lastSweep_ = now;
  }
  auto& times = recent_[key];
  while (!times.empty() && now - times.front() >= kWindow) times.pop_front();
  if (static_cast<int>(times.size()) >= perMinute_) return false;
  times.push_back(now);
  return true;
}

int RateLimiter::retryAfterSeconds(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto found = recent_.find(key);
  if (found == recent_.end() || found->second.empty()) return 1;
  auto left = std::chrono::duration_cast<std::chrono::seconds>(found->second.front() + kWindow - now).count();
  return static_cast<int>(left < 1 ? 1 : left + 1);
}

}  // namespace docs_rag
