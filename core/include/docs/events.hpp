#pragma once
// Plugin-to-plugin events. Published after commit; delivered to subscribers on this node
// and, through PostgreSQL NOTIFY, on every other node sharing the database.

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace docs {

class Tx;

using EventHandler = std::function<void(const nlohmann::json& payload)>;

class EventBus {
 public:
  virtual ~EventBus();
  // Delivers now (asynchronously, on the event threads).
  virtual void publish(std::string_view topic, const nlohmann::json& payload) = 0;
  // Delivers once tx commits; nothing happens if it rolls back.
  virtual void publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) = 0;
};

}  // namespace docs
