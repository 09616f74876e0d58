// The event bus, job queue and logger of a FakeContext: they record instead of acting.
#include <docs/testing/fake_context.hpp>

#include <utility>

namespace docs::testing {

void CapturingEventBus::publish(std::string_view topic, const Json& payload) {
  if (phase_) phase_->refuse("the event bus");
  std::lock_guard lock(mutex_);
  published_.push_back({std::string(topic), payload, false});
}

void CapturingEventBus::publishAfterCommit(Tx& tx, std::string_view topic, const Json& payload) {
  if (phase_) phase_->refuse("the event bus");
  tx.afterCommit([this, event = PublishedEvent{std::string(topic), payload, true}] {
    std::lock_guard lock(mutex_);
    published_.push_back(event);
  });
}

std::vector<PublishedEvent> CapturingEventBus::published() const {
  std::lock_guard lock(mutex_);
  return published_;
}

std::vector<Json> CapturingEventBus::payloadsOf(std::string_view topic) const {
  std::lock_guard lock(mutex_);
  std::vector<Json> payloads;
  for (const auto& event : published_)
    if (event.topic == topic) payloads.push_back(event.payload);
  return payloads;
}

std::vector<PublishedEvent> CapturingEventBus::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(published_, {});
}

bool CapturingJobQueue::dedupeKeyHeld(const std::string& key) const {
  if (key.empty()) return false;
  for (const auto& job : enqueued_)
    if (job.spec.dedupeKey == key) return true;
  return false;
}

std::int64_t CapturingJobQueue::enqueue(const JobSpec& spec) {
  if (phase_) phase_->refuse("the job queue");
  std::lock_guard lock(mutex_);
  if (dedupeKeyHeld(spec.dedupeKey)) return 0;
  enqueued_.push_back({nextId_, spec, false});
  return nextId_++;
}

std::int64_t CapturingJobQueue::enqueue(Tx& tx, const JobSpec& spec) {
  if (phase_) phase_->refuse("the job queue");
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    if (dedupeKeyHeld(spec.dedupeKey)) return 0;
    id = nextId_++;
  }
  tx.afterCommit([this, job = EnqueuedJob{id, spec, true}] {
    std::lock_guard lock(mutex_);
    enqueued_.push_back(job);
  });
  return id;
}

std::vector<EnqueuedJob> CapturingJobQueue::enqueued() const {
  std::lock_guard lock(mutex_);
  return enqueued_;
}

std::vector<EnqueuedJob> CapturingJobQueue::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(enqueued_, {});
}

void CapturingLogger::log(LogLevel level, std::string_view message, const Json& fields) {
  std::lock_guard lock(mutex_);
  lines_.push_back({level, std::string(message), fields});
}

std::vector<LogLine> CapturingLogger::lines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

bool CapturingLogger::logged(std::string_view message) const {
  std::lock_guard lock(mutex_);
  for (const auto& line : lines_)
    if (line.message == message) return true;
  return false;
}

}  // namespace docs::testing
