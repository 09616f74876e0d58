#include "write_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace docs_comments {

int WriteLimiter::take(const std::string& user, Clock::time_point now) {
  if (perMinute_ <= 0) return 0;  // 0: unlimited
  std::lock_guard lock(mutex_);
  auto refill = [&](Bucket& bucket) {
    double minutes = std::chrono::duration<double>(now - bucket.at).count() / 60.0;
    bucket.tokens = std::min(perMinute_, bucket.tokens + minutes * perMinute_);
    bucket.at = now;
  };
  if (now - lastSweep_ > std::chrono::minutes(5)) {  // full buckets carry nothing: forget them
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      refill(it->second);
      it = it->second.tokens >= perMinute_ ? buckets_.erase(it) : std::next(it);
    }
    lastSweep_ = now;
  }
  auto [found, fresh] = buckets_.try_emplace(user, Bucket{perMinute_, now});
  Bucket& bucket = found->second;
  if (!fresh) refill(bucket);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return std::max(1, static_cast<int>(std::ceil((1 - bucket.tokens) * 60.0 / perMinute_)));
}

}  // namespace docs_comments
