#pragma once
// docs::EventBus: local delivery on one dispatch thread, and cross-node delivery through
// NOTIFY docs_events (each node ignores its own notifications). Each subscription names
// the plugin it belongs to, so that delivery to a plugin can end before its stop() while
// the others still receive.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "docs/events.hpp"
#include "docs/logger.hpp"

namespace docs {
class Db;
}

namespace docs::core {

class LocalEventBus final : public EventBus {
 public:
  LocalEventBus(Db* db, std::string nodeId, std::shared_ptr<Logger> logger);
  ~LocalEventBus() override;

  void subscribe(std::string topic, std::string owner, EventHandler handler);
  void publish(std::string_view topic, const nlohmann::json& payload) override;
  void publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) override;
  // A NOTIFY docs_events payload from the listener.
  void receiveRemote(const std::string& notification);

  void start();
  // Waits up to `bound` for the events queued before this call to be delivered (what is
  // published meanwhile is not waited for), then delivers nothing more to `owner`'s
  // handlers. False when the bound passed: the handler that held delivery up is logged,
  // and may still be running. Once an event has held up one call, later calls do not
  // wait for it again.
  bool closeFor(const std::string& owner, std::chrono::milliseconds bound);
  // Delivers what is queued, then stops: false when a handler still runs after `bound`
  // (the dispatch thread is then left to finish on its own: keep this object alive).
  bool stop(std::chrono::milliseconds bound = std::chrono::milliseconds::max());

  // Called before each delivery with the seconds the event waited in the queue (metrics).
  // Set before start().
  void setLagObserver(std::function<void(double)> observer) { lagObserver_ = std::move(observer); }
  std::size_t queued() const;

 private:
  struct Queued {
    std::uint64_t sequence = 0;  // 1, 2, ... in the order queued
    std::string topic;
    nlohmann::json payload;
    std::chrono::steady_clock::time_point enqueued;
  };
  struct Subscription {
    std::string owner;
    EventHandler handler;
  };
  void enqueueLocal(std::string topic, nlohmann::json payload);
  void dispatchLoop();

  Db* db_;
  std::string nodeId_;
  std::shared_ptr<Logger> logger_;
  std::map<std::string, std::vector<Subscription>, std::less<>> handlers_;
  std::set<std::string, std::less<>> closed_;  // owners delivered to no more
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Queued> queue_;
  std::function<void(double)> lagObserver_;
  bool stopping_ = false;
  std::uint64_t lastQueued_ = 0;     // sequence of the newest event queued
  std::uint64_t lastDelivered_ = 0;  // every event up to this one has been delivered
  // The handler running now (outside the mutex), for the log when it holds delivery up.
  std::uint64_t deliveringSequence_ = 0;  // 0: none
  std::string deliveringOwner_;
  std::string deliveringTopic_;
  std::uint64_t stuckSequence_ = 0;  // the event a closeFor gave up waiting for
  bool finished_ = false;            // the dispatch loop returned
  std::condition_variable delivered_;
  std::thread thread_;
};

}  // namespace docs::core
