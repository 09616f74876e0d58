#pragma once
// Request bodies read at a minimum rate and within a route's limit.

#include <Poco/Net/StreamSocket.h>

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

// Reads a request body piecewise for a streaming route, refusing bytes past the limit.
class LimitedBodyReader final : public BodyReader {
 public:
  // in: null when the request has no body.
  LimitedBodyReader(std::istream* in, std::size_t limit, BodyPace pace) : in_(in), limit_(limit), pace_(pace) {}
  std::size_t read(char* buffer, std::size_t size) override;
  bool finished() const { return finished_ || !in_; }

 private:
  std::istream* in_;
  std::size_t limit_;
  BodyPace pace_;
  std::size_t total_ = 0;
  bool finished_ = false;
};

}  // namespace docs::core
