#pragma once
// docs::EventBus: local delivery on one dispatch thread, and cross-node delivery through
// NOTIFY docs_events (each node ignores its own notifications).

#include <condition_variable>
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

 private:
  void enqueueLocal(std::string topic, nlohmann::json payload);
  void dispatchLoop();

  Db* db_;
  std::string nodeId_;
  std::shared_ptr<Logger> logger_;
  std::map<std::string, std::vector<EventHandler>, std::less<>> handlers_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::pair<std::string, nlohmann::json>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace docs::core
