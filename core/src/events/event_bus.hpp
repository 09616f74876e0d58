#pragma once
// docs::EventBus: local delivery on one dispatch thread, and cross-node delivery through
// NOTIFY docs_events (each node ignores its own notifications).

#include <chrono>
#include <condition_variable>
#include <functional>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
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

  void subscribe(std::string topic, EventHandler handler);
  void publish(std::string_view topic, const nlohmann::json& payload) override;
  void publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) override;
  // A NOTIFY docs_events payload from the listener.
  void receiveRemote(const std::string& notification);

  void start();
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
  void enqueueLocal(std::string topic, nlohmann::json payload);
  void dispatchLoop();

  Db* db_;
  std::string nodeId_;
  std::shared_ptr<Logger> logger_;
  std::map<std::string, std::vector<EventHandler>, std::less<>> handlers_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Queued> queue_;
  std::function<void(double)> lagObserver_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace docs::core
