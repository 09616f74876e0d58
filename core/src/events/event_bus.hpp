#pragma once
// docs::EventBus: local delivery on one dispatch thread, and cross-node delivery through
// NOTIFY docs_events (each node ignores its own notifications). Each subscription names
// the plugin it belongs to, so that delivery to a plugin can end before its stop() while
// the others still receive.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <deque>
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
  // Delivers what is queued so far (waits for it when delivery runs), then delivers
  // nothing more to `owner`'s handlers: none of them runs once this returns.
  void closeFor(const std::string& owner);
  // Delivers what is queued, then stops.
  void stop();

  // Called before each delivery with the seconds the event waited in the queue (metrics).
  // Set before start().
  void setLagObserver(std::function<void(double)> observer) { lagObserver_ = std::move(observer); }
  std::size_t queued() const;

 private:
  struct Queued {
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
  bool delivering_ = false;  // the dispatch thread runs handlers (outside the mutex)
  std::condition_variable idle_;
  std::thread thread_;
};

}  // namespace docs::core
