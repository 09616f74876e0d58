#include "sign_in_limits.hpp"

#include <docs/db.hpp>

#include <arpa/inet.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace docs_auth {

using docs::Db;
using docs::Tx;

std::string clientKey(const std::string& address) {
  std::string text = address;
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  if (auto zone = text.find('%'); zone != std::string::npos) text.resize(zone);
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return text;
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) return address;
  char buffer[INET6_ADDRSTRLEN] = {};
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    std::memcpy(&v4, v6.s6_addr + 12, 4);
    inet_ntop(AF_INET, &v4, buffer, sizeof buffer);
    return buffer;
  }
  std::memset(v6.s6_addr + 8, 0, 8);
  inet_ntop(AF_INET6, &v6, buffer, sizeof buffer);
  return std::string(buffer) + "/64";
}

std::int64_t retryAfterSeconds(std::int64_t failures, std::int64_t cap, std::int64_t free, std::int64_t baseSeconds,
                               std::int64_t windowSeconds, std::int64_t sinceLast, std::int64_t untilOldestLeaves) {
  std::int64_t wait = 0;
  if (failures >= cap) wait = std::max<std::int64_t>(wait, untilOldestLeaves);
  if (failures > free) {
    std::int64_t doublings = std::min<std::int64_t>(failures - free - 1, 40);
    double delay = static_cast<double>(baseSeconds) * std::ldexp(1.0, static_cast<int>(doublings));
    std::int64_t backoff = static_cast<std::int64_t>(std::min(delay, static_cast<double>(windowSeconds)));
    wait = std::max<std::int64_t>(wait, backoff - sinceLast);
  }
  return std::max<std::int64_t>(wait, 0);
}

SignInLimits::SignInLimits(Db& db, const AuthSettings& settings) : db_(db), settings_(settings) {}

std::int64_t SignInLimits::wait(Tx& tx, const std::string& bucket, std::int64_t cap) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtext($1))", {bucket});
  const auto window = static_cast<std::int64_t>(settings_.failureWindow.count());
  auto rows = tx.exec(
      "SELECT count(*) AS n,"
      " coalesce(ceil(extract(epoch FROM now() - max(created_at))), 0)::bigint AS since_last,"
      " coalesce(ceil(extract(epoch FROM min(created_at) + make_interval(secs => $2) - now())), 0)::bigint"
      "   AS until_oldest_leaves"
      " FROM auth_failures WHERE bucket = $1 AND created_at > now() - make_interval(secs => $2)",
      {bucket, window});
  return retryAfterSeconds(rows[0].int64("n"), cap, settings_.failureBackoffAfter, settings_.failureBackoffBase.count(),
                           window, rows[0].int64("since_last"), rows[0].int64("until_oldest_leaves"));
}

std::int64_t SignInLimits::lockAndCheck(Tx& tx, const std::string& key, const std::string& email) {
  std::int64_t result = wait(tx, "address:" + key, settings_.failuresPerAddressPerDay);
  if (!email.empty()) result = std::max(result, wait(tx, "account:" + email, settings_.failuresPerAccountPerDay));
  return result;
}

void SignInLimits::recordFailure(Tx& tx, const std::string& key, const std::string& email) {
  tx.exec("INSERT INTO auth_failures (bucket) VALUES ($1)", {"address:" + key});
  if (!email.empty()) tx.exec("INSERT INTO auth_failures (bucket) VALUES ($1)", {"account:" + email});
}

void SignInLimits::cleanUp() {
  db_.exec("DELETE FROM auth_failures WHERE created_at < now() - make_interval(secs => $1)",
           {static_cast<std::int64_t>(settings_.failureWindow.count())});
}

}  // namespace docs_auth
