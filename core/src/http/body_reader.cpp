#include "http/body_reader.hpp"

#include <algorithm>

#include "http/header_deadlines.hpp"

namespace docs::core {

BodyPace::BodyPace(HeaderDeadlines& deadlines, const Poco::Net::StreamSocket& socket, BodyRate rate)
    : deadlines_(&deadlines), socket_(&socket), rate_(rate), started_(std::chrono::steady_clock::now()) {}

void BodyPace::beforeRead(std::uint64_t received, std::size_t wanted) const {
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
  deadlines_->arm(*socket_, bodyTimeLeft(rate_, received + wanted, elapsed));
}

bool ByteBudget::take(std::uint64_t bytes) {
  std::uint64_t used = used_.load();
  do {
    if (used + bytes > limit_) return false;
  } while (!used_.compare_exchange_weak(used, used + bytes));
  return true;
}

void BudgetCharge::holdUpTo(std::uint64_t total) {
  if (!budget_ || total <= held_) return;
  // Taken in steps of at least 64 KiB, so a body read in small pieces costs few atomics.
  std::uint64_t more = std::max<std::uint64_t>(total - held_, 65536);
  if (!budget_->take(more) && !budget_->take(more = total - held_))
    throw HttpError(503, "busy", "The server is receiving too many unsigned request bodies; try again shortly");
  held_ += more;
}

std::size_t LimitedBodyReader::read(char* buffer, std::size_t size) {
  if (!in_ || finished_) return 0;
  pace_.beforeRead(total_, size);
  in_->read(buffer, static_cast<std::streamsize>(size));
  auto n = static_cast<std::size_t>(in_->gcount());
  if (n == 0) {
    if (in_->bad()) throw HttpError(400, "body_incomplete", "The request body ended early");
    finished_ = true;
  }
  total_ += n;
  if (total_ > limit_) throw HttpError::payloadTooLarge();
  if (charge_) charge_->holdUpTo(total_);
  return n;
}

}  // namespace docs::core
