#include "events/event_bus.hpp"

#include <cstdio>

#include "docs/db.hpp"

namespace docs::core {

namespace {
// PostgreSQL limits NOTIFY payloads to just under 8000 bytes.
constexpr std::size_t kMaxNotifyBytes = 7900;
}  // namespace

LocalEventBus::LocalEventBus(Db* db, std::string nodeId, std::shared_ptr<Logger> logger)
    : db_(db), nodeId_(std::move(nodeId)), logger_(std::move(logger)) {}

LocalEventBus::~LocalEventBus() {
  try {
    stop();
  } catch (const std::exception& error) {
    // A destructor must not throw: what kept the delivery thread from stopping goes to stderr.
    std::fprintf(stderr, "docsd: stopping the event bus failed: %s\n", error.what());
  }
}

void LocalEventBus::subscribe(std::string topic, std::string owner, EventHandler handler) {
  std::lock_guard lock(mutex_);
  handlers_[std::move(topic)].push_back({std::move(owner), std::move(handler)});
}

void LocalEventBus::enqueueLocal(std::string topic, nlohmann::json payload) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  queue_.push_back({++lastQueued_, std::move(topic), std::move(payload), std::chrono::steady_clock::now()});
  ready_.notify_one();
}

void LocalEventBus::publish(std::string_view topic, const nlohmann::json& payload) {
  enqueueLocal(std::string(topic), payload);
  if (!db_) return;
  std::string message = nlohmann::json{{"node", nodeId_}, {"topic", topic}, {"payload", payload}}.dump();
  if (message.size() > kMaxNotifyBytes) {
    if (logger_) logger_->warn("event too large for other nodes; delivered locally only", {{"topic", topic}});
    return;
  }
  try {
    db_->exec("SELECT pg_notify('docs_events', $1)", {message});
  } catch (const std::exception& error) {
    if (logger_) logger_->warn("event not sent to other nodes", {{"topic", topic}, {"error", error.what()}});
  }
}

void LocalEventBus::publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) {
  std::string name(topic);
  tx.afterCommit([this, name, payload] { publish(name, payload); });
}

void LocalEventBus::receiveRemote(const std::string& notification) {
  auto message = nlohmann::json::parse(notification, nullptr, false);
  if (!message.is_object() || message.value("node", "") == nodeId_) return;
  enqueueLocal(message.value("topic", ""), message.value("payload", nlohmann::json()));
}

std::size_t LocalEventBus::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void LocalEventBus::start() {
  std::lock_guard lock(mutex_);
  stopping_ = false;
  finished_ = false;
  if (!thread_.joinable()) thread_ = std::thread([this] { dispatchLoop(); });
}

bool LocalEventBus::closeFor(const std::string& owner, std::chrono::milliseconds bound) {
  std::unique_lock lock(mutex_);
  // Only what is queued now: a plugin that keeps publishing cannot keep this waiting.
  const std::uint64_t target = lastQueued_;
  auto delivered = [&] { return lastDelivered_ >= target && (deliveringSequence_ == 0 || deliveringOwner_ != owner); };
  auto heldUpAgain = [&] { return stuckSequence_ != 0 && deliveringSequence_ == stuckSequence_; };
  if (thread_.joinable() && !finished_) delivered_.wait_for(lock, bound, [&] { return delivered() || heldUpAgain(); });
  // Handlers are chosen per call under the mutex: marking the owner keeps it out of every later one.
  closed_.insert(owner);
  if (delivered() || !thread_.joinable() || finished_) return true;
  nlohmann::json fields = {{"closing", owner},
                           {"plugin", deliveringOwner_},
                           {"topic", deliveringTopic_},
                           {"undelivered", target - lastDelivered_}};
  const bool firstTime = deliveringSequence_ == 0 || stuckSequence_ != deliveringSequence_;
  stuckSequence_ = deliveringSequence_;
  lock.unlock();
  if (logger_) {
    if (firstTime) {
      fields["waited_ms"] = bound.count();
      logger_->warn("an event handler holds delivery up; the plugin stops without the events queued before", fields);
    } else {
      logger_->warn("the same event handler still holds delivery up; the plugin stops without waiting", fields);
    }
  }
  return false;
}

bool LocalEventBus::stop(std::chrono::milliseconds bound) {
  std::unique_lock lock(mutex_);
  stopping_ = true;
  ready_.notify_all();
  if (!thread_.joinable()) return true;
  auto ended = [&] { return finished_; };
  if (bound == std::chrono::milliseconds::max()) delivered_.wait(lock, ended);
  else delivered_.wait_for(lock, bound, ended);
  if (finished_) {
    lock.unlock();
    thread_.join();
    return true;
  }
  nlohmann::json fields = {{"plugin", deliveringOwner_}, {"topic", deliveringTopic_}, {"waited_ms", bound.count()}};
  lock.unlock();
  if (logger_) logger_->error("event delivery did not end: a handler still runs", fields);
  thread_.detach();
  return false;
}

void LocalEventBus::dispatchLoop() {
  for (;;) {
    Queued event;
    std::vector<Subscription> targets;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) {
        finished_ = true;
        delivered_.notify_all();
        return;
      }
      event = std::move(queue_.front());
      queue_.pop_front();
      if (auto it = handlers_.find(event.topic); it != handlers_.end())
        for (const auto& subscription : it->second)
          if (!closed_.count(subscription.owner)) targets.push_back(subscription);
    }
    if (lagObserver_)
      lagObserver_(std::chrono::duration<double>(std::chrono::steady_clock::now() - event.enqueued).count());
    for (auto& target : targets) {
      {
        std::lock_guard lock(mutex_);
        if (closed_.count(target.owner)) continue;  // closed while this event reached others
        deliveringSequence_ = event.sequence;
        deliveringOwner_ = target.owner;
        deliveringTopic_ = event.topic;
      }
      try {
        target.handler(event.payload);
      } catch (const std::exception& error) {
        if (logger_)
          logger_->error("event handler failed",
                         {{"plugin", target.owner}, {"topic", event.topic}, {"error", error.what()}});
      }
      {
        std::lock_guard lock(mutex_);
        deliveringSequence_ = 0;
      }
      delivered_.notify_all();
    }
    {
      std::lock_guard lock(mutex_);
      lastDelivered_ = event.sequence;
    }
    delivered_.notify_all();
  }
}

}  // namespace docs::core
