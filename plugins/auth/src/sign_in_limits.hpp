#pragma once
// Limits on guessing: every failed sign-in try (a wrong code, an unknown link) is counted
// for the client (its IPv4 address, or its IPv6 /64: one host owns a whole /64) and for
// the account (the email). Past a few failures in a day each further try waits
// exponentially longer, and past a daily cap none is taken until the day's oldest
// failure ages out. A locked account still signs in by the link mailed with each code:
// only the mailbox's owner has it, so a lock-out by strangers never locks its owner out.

#include <chrono>
#include <cstdint>
#include <string>

#include "settings.hpp"

namespace docs {
class Db;
class Tx;
}  // namespace docs

namespace docs_auth {

// What limits count a client by: an IPv4 address as it is (also when IPv4-mapped), an
// IPv6 address by its /64 prefix ("2001:db8:1:2::/64"); anything else as it is.
std::string clientKey(const std::string& address);

// Seconds until one more try may be made after `failures` failures in the window, the
// newest `sinceLast` seconds ago and the oldest leaving the window in `untilOldestLeaves`
// seconds: 0 within `free` failures; then base x 2^(failures - free - 1) after the newest
// (at most the window); and at `cap` failures until the oldest leaves the window.
std::int64_t retryAfterSeconds(std::int64_t failures, std::int64_t cap, std::int64_t free, std::int64_t baseSeconds,
                               std::int64_t windowSeconds, std::int64_t sinceLast, std::int64_t untilOldestLeaves);

class SignInLimits {
 public:
  explicit SignInLimits(docs::Db& db, const AuthSettings& settings);

  // Serialises tries for the client and the account in tx (client first, then account)
  // and answers how long they must wait; 0: the try may go on. An empty email checks the
  // client alone.
  std::int64_t lockAndCheck(docs::Tx& tx, const std::string& clientKey, const std::string& email);
  // Counts a failed try for the client and (when given) the account.
  void recordFailure(docs::Tx& tx, const std::string& clientKey, const std::string& email);
  // Drops failures older than the window.
  void cleanUp();

 private:
  std::int64_t wait(docs::Tx& tx, const std::string& bucket, std::int64_t cap);

  docs::Db& db_;
  const AuthSettings& settings_;
};

}  // namespace docs_auth
