#include "session_openings.hpp"

#include <iterator>

namespace docs_mcp {

bool SessionOpenings::allow(const std::string& address, std::int64_t minute) {
  if (perMinute_ <= 0) return true;
  auto found = counts_.find(address);
  if (found == counts_.end() && counts_.size() >= maxAddresses_) {
    for (auto it = counts_.begin(); it != counts_.end();)  // earlier minutes' counts are spent
      it = it->second.first != minute ? counts_.erase(it) : std::next(it);
    if (counts_.size() >= maxAddresses_) return false;  // this minute is full: no fresh allowance
  }
  auto& [at, count] = counts_[address];
  if (at != minute) {
    at = minute;
    count = 0;
  }
  return ++count <= perMinute_;
}

}  // namespace docs_mcp
