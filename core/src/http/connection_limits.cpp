#include "connection_limits.hpp"

#include <algorithm>

namespace docs::core {

bool ConnectionsPerAddress::tryAcquire(const std::string& address) {
  if (limit_ == 0 || std::find(exempt_.begin(), exempt_.end(), address) != exempt_.end()) return true;
  std::lock_guard lock(mutex_);
  auto& count = open_[address];
  if (count >= limit_) return false;
  ++count;
  return true;
}

void ConnectionsPerAddress::release(const std::string& address) {
  if (limit_ == 0 || std::find(exempt_.begin(), exempt_.end(), address) != exempt_.end()) return;
  std::lock_guard lock(mutex_);
  auto found = open_.find(address);
  if (found == open_.end()) return;
  if (--found->second == 0) open_.erase(found);
}

std::size_t ConnectionsPerAddress::openFrom(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto found = open_.find(address);
  return found == open_.end() ? 0 : found->second;
}

std::chrono::milliseconds bodyTimeLeft(const BodyRate& rate, std::uint64_t wanted, std::chrono::milliseconds elapsed) {
  using std::chrono::milliseconds;
  if (rate.minBytesPerSecond == 0) return milliseconds(24LL * 3600 * 1000);
  auto allowed = rate.grace + milliseconds(static_cast<std::int64_t>(wanted * 1000 / rate.minBytesPerSecond));
  return std::max(milliseconds(1), allowed - elapsed);
}

}  // namespace docs::core
