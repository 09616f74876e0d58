#pragma once
// How many MCP sessions each address opened this minute, for mcp.sessions_per_minute.
// Bounded: past `maxAddresses` the entries of earlier minutes go; when this minute alone
// has that many addresses, a new address is refused rather than every count reset (a
// flood of addresses must not give each of them, and everyone else, a fresh allowance).

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

namespace docs_mcp {

class SessionOpenings {
 public:
  SessionOpenings(int perMinute, std::size_t maxAddresses = 100000)
      : perMinute_(perMinute), maxAddresses_(maxAddresses) {}

  // Counts a session `address` opens in `minute`; false past the allowance.
  bool allow(const std::string& address, std::int64_t minute);
  std::size_t tracked() const { return counts_.size(); }

 private:
  int perMinute_;
  std::size_t maxAddresses_;
  std::unordered_map<std::string, std::pair<std::int64_t, int>> counts_;  // minute, count
};

}  // namespace docs_mcp
