#pragma once
// Request bodies read at a minimum rate and within a route's limit.

#include <Poco/Net/StreamSocket.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <istream>

#include "docs/http.hpp"
#include "http/connection_limits.hpp"

namespace docs::core {

class HeaderDeadlines;

// The whole body must come at the minimum rate: one deadline from when the body began,
// moved on as bytes arrive.
class BodyPace {
 public:
  BodyPace(HeaderDeadlines& deadlines, const Poco::Net::StreamSocket& socket, BodyRate rate);
  // Arms the deadline for `wanted` more bytes after `received`.
  void beforeRead(std::uint64_t received, std::size_t wanted) const;

 private:
  HeaderDeadlines* deadlines_;
  const Poco::Net::StreamSocket* socket_;
  BodyRate rate_;
  std::chrono::steady_clock::time_point started_;
};

// Bytes the whole server holds of bodies nobody signed in for (RouteOptions::anonymousBody,
// such as webhooks): 40 anonymous 24 MB bodies held back by their last byte once took
// docsd past 1 GiB. Shared by every worker.
class ByteBudget {
 public:
  explicit ByteBudget(std::uint64_t limit) : limit_(limit) {}
  // False (and nothing taken) when `bytes` more would pass the limit.
  bool take(std::uint64_t bytes);
  void give(std::uint64_t bytes) { used_.fetch_sub(bytes); }
  std::uint64_t used() const { return used_.load(); }

 private:
  const std::uint64_t limit_;
  std::atomic<std::uint64_t> used_{0};
};

// What one request holds of a ByteBudget, given back when the request ends.
class BudgetCharge {
 public:
  BudgetCharge() = default;
  // Before the first holdUpTo().
  void countAgainst(ByteBudget& budget) { budget_ = &budget; }
  BudgetCharge(const BudgetCharge&) = delete;
  BudgetCharge& operator=(const BudgetCharge&) = delete;
  ~BudgetCharge() {
    if (budget_) budget_->give(held_);
  }
  // Holds at least `total` bytes in all; throws 503 (the connection must close) when the
  // budget has no room. Without a budget it holds nothing and always succeeds.
  void holdUpTo(std::uint64_t total);

 private:
  ByteBudget* budget_ = nullptr;
  std::uint64_t held_ = 0;
};

// Reads a request body piecewise for a streaming route, refusing bytes past the limit.
class LimitedBodyReader final : public BodyReader {
 public:
  // in: null when the request has no body. charge: what the body's bytes are counted
  // against (null: nothing).
  LimitedBodyReader(std::istream* in, std::size_t limit, BodyPace pace, BudgetCharge* charge = nullptr)
      : in_(in), limit_(limit), pace_(pace), charge_(charge) {}
  std::size_t read(char* buffer, std::size_t size) override;
  bool finished() const { return finished_ || !in_; }

 private:
  std::istream* in_;
  std::size_t limit_;
  BodyPace pace_;
  BudgetCharge* charge_;
  std::size_t total_ = 0;
  bool finished_ = false;
};

}  // namespace docs::core
