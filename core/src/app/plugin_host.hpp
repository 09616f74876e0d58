#pragma once
// Everything plugins declare, collected per plugin by a Registry implementation, and the
// Context each plugin receives.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/config_store.hpp"
#include "db/migrations.hpp"
#include "docs/plugin.hpp"
#include "http/http_server.hpp"
#include "http/router.hpp"
#include "jobs/background.hpp"

namespace docs::core {

// Shared state that the contexts point into; filled as the start proceeds.
struct HostState {
  ConfigStore* config = nullptr;
  Db* db = nullptr;                 // set once migrations ran
  JobQueue* jobs = nullptr;
  EventBus* events = nullptr;
  Metrics* metrics = nullptr;       // none for commands: plugins get a registry that keeps nothing
  std::string dataDir;
  std::map<std::string, void*, std::less<>> services;
  std::map<std::string, std::string, std::less<>> serviceOwners;
};

// The subcommands docsd itself runs; a plugin may not declare these names.
bool isCoreCommand(std::string_view name);

struct DeclaredCommand {
  Command command;
  std::string owner;  // the plugin
};

struct Declarations {
  Router router;
  std::vector<WebSocketEndpoint> websockets;
  std::vector<Migration> migrations;
  std::vector<std::pair<std::string, JobHandler>> jobHandlers;
  std::vector<PeriodicTask> periodicTasks;
  std::vector<std::pair<std::string, EventHandler>> subscriptions;
  std::vector<DeclaredCommand> commands;
  std::map<std::string, Json> openApiSchemas;  // named schemas of the routes' RouteDocs
};

class PluginContext final : public Context {
 public:
  PluginContext(std::string pluginName, HostState& state);
  const Config& config() const override;
  Db& db() override;
  JobQueue& jobs() override;
  EventBus& events() override;
  Logger& logger() override { return *logger_; }
  const std::string& dataDir() const override { return state_.dataDir; }
  void* findServiceById(std::string_view id) const override;
  Metrics& metrics() override { return state_.metrics ? *state_.metrics : Context::metrics(); }

 private:
  std::string name_;
  HostState& state_;
  std::shared_ptr<Logger> logger_;
};

class PluginRegistry final : public Registry {
 public:
  PluginRegistry(std::string pluginName, PluginContext& context, HostState& state, Declarations& declarations);
  Context& context() override { return context_; }
  void route(Method method, std::string pathTemplate, Handler handler, RouteOptions options, RouteDoc doc) override;
  void websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options) override;
  void migration(int version, std::string name, std::string sql) override;
  void jobHandler(std::string kind, JobHandler handler) override;
  void periodic(std::string name, PeriodicOptions options, std::function<void()> task) override;
  void subscribe(std::string topic, EventHandler handler) override;
  void configKey(std::string key, std::string defaultValue, std::string description) override;
  void command(Command command) override;
  void provideServiceById(std::string id, void* service) override;

 private:
  std::string name_;
  PluginContext& context_;
  HostState& state_;
  Declarations& declarations_;
};

}  // namespace docs::core
