#include "events/event_bus.hpp"

#include "docs/db.hpp"

namespace docs::core {

namespace {
// PostgreSQL limits NOTIFY payloads to just under 8000 bytes.
constexpr std::size_t kMaxNotifyBytes = 7900;
}  // namespace

LocalEventBus::LocalEventBus(Db* db, std::string nodeId, std::shared_ptr<Logger> logger)
    : db_(db), nodeId_(std::move(nodeId)), logger_(std::move(logger)) {}

LocalEventBus::~LocalEventBus() { stop(); }

void LocalEventBus::subscribe(std::string topic, std::string owner, EventHandler handler) {
  std::lock_guard lock(mutex_);
  handlers_[std::move(topic)].push_back({std::move(owner), std::move(handler)});
}

void LocalEventBus::enqueueLocal(std::string topic, nlohmann::json payload) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  queue_.push_back({std::move(topic), std::move(payload), std::chrono::steady_clock::now()});
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
  if (!thread_.joinable()) thread_ = std::thread([this] { dispatchLoop(); });
}

void LocalEventBus::closeFor(const std::string& owner) {
  std::unique_lock lock(mutex_);
  // The handlers of one delivery are chosen under the mutex: once the queue is empty and
  // no delivery runs, marking the owner here keeps it out of every later one.
  if (thread_.joinable() && !stopping_) idle_.wait(lock, [&] { return queue_.empty() && !delivering_; });
  closed_.insert(owner);
}

void LocalEventBus::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    ready_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void LocalEventBus::dispatchLoop() {
  for (;;) {
    Queued event;
    std::vector<EventHandler> handlers;
    {
      std::unique_lock lock(mutex_);
      delivering_ = false;
      idle_.notify_all();
      ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      event = std::move(queue_.front());
      queue_.pop_front();
      delivering_ = true;
      if (auto it = handlers_.find(event.topic); it != handlers_.end())
        for (const auto& subscription : it->second)
          if (!closed_.count(subscription.owner)) handlers.push_back(subscription.handler);
    }
    if (lagObserver_) lagObserver_(std::chrono::duration<double>(std::chrono::steady_clock::now() - event.enqueued).count());
    for (auto& handler : handlers) {
      try {
        handler(event.payload);
      } catch (const std::exception& error) {
        if (logger_) logger_->error("event handler failed", {{"topic", event.topic}, {"error", error.what()}});
      }
    }
  }
}

}  // namespace docs::core
