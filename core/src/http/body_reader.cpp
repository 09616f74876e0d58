#include "http/body_reader.hpp"

#include "http/header_deadlines.hpp"

namespace docs::core {

BodyPace::BodyPace(HeaderDeadlines& deadlines, const Poco::Net::StreamSocket& socket, BodyRate rate)
    : deadlines_(&deadlines), socket_(&socket), rate_(rate), started_(std::chrono::steady_clock::now()) {}

void BodyPace::beforeRead(std::uint64_t received, std::size_t wanted) const {
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
  deadlines_->arm(*socket_, bodyTimeLeft(rate_, received + wanted, elapsed));
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
  return n;
}

}  // namespace docs::core
