#pragma once
// Everything plugins declare, collected per plugin by a Registry implementation, and the
// Context each plugin receives.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/service_graph.hpp"
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
  Db* db = nullptr;  // set once migrations ran
  JobQueue* jobs = nullptr;
  EventBus* events = nullptr;
  Metrics* metrics = nullptr;  // none for commands: plugins get a registry that keeps nothing
  bool commandRuns = false;    // a command runs: it opens no database, job queue or event bus
  std::string dataDir;
  ProvidedServices provided;
  std::vector<DeclaredNeed> needs;
};

// What a plugin's Context hands out from configure() on: forwards to the host's database,
// job queue or event bus once it exists, and throws std::logic_error naming the plugin
// when used before (during configure(), or by a command, which has none).
class DeferredDb final : public Db {
 public:
  DeferredDb(const std::string& plugin, HostState& state) : plugin_(plugin), state_(state) {}
  Result exec(std::string_view sql, const Params& params) override;
  void transaction(const std::function<void(Tx&)>& body) override;

 private:
  Db& target();
  const std::string& plugin_;
  HostState& state_;
};

class DeferredJobQueue final : public JobQueue {
 public:
  DeferredJobQueue(const std::string& plugin, HostState& state) : plugin_(plugin), state_(state) {}
  std::int64_t enqueue(const JobSpec& spec) override;
  std::int64_t enqueue(Tx& tx, const JobSpec& spec) override;

 private:
  JobQueue& target();
  const std::string& plugin_;
  HostState& state_;
};

class DeferredEventBus final : public EventBus {
 public:
  DeferredEventBus(const std::string& plugin, HostState& state) : plugin_(plugin), state_(state) {}
  void publish(std::string_view topic, const nlohmann::json& payload) override;
  void publishAfterCommit(Tx& tx, std::string_view topic, const nlohmann::json& payload) override;

 private:
  EventBus& target();
  const std::string& plugin_;
  HostState& state_;
};

// The subcommands docsd itself runs; a plugin may not declare these names.
bool isCoreCommand(std::string_view name);

struct DeclaredCommand {
  Command command;
  std::string owner;  // the plugin
};

struct Subscription {
  std::string topic;
  std::string owner;  // the plugin
  EventHandler handler;
};

// What a plugin tells the web app (/config.json), with the plugin that declared it.
struct DeclaredEndpoint {
  ClientEndpoint endpoint;
  std::string owner;
};
struct DeclaredSetting {
  std::string key;
  std::function<Json()> value;
  std::string owner;
};

// /config.json keys docsd writes itself; no plugin may declare them.
bool isCoreClientKey(std::string_view key);

struct Declarations {
  Router router;
  std::vector<WebSocketEndpoint> websockets;
  std::vector<Migration> migrations;
  std::vector<std::pair<std::string, JobHandler>> jobHandlers;
  std::vector<PeriodicTask> periodicTasks;
  std::vector<Subscription> subscriptions;
  std::vector<DeclaredCommand> commands;
  std::map<std::string, Json> openApiSchemas;  // named schemas of the routes' RouteDocs
  std::vector<DeclaredEndpoint> clientEndpoints;
  std::vector<DeclaredSetting> clientSettings;
  std::vector<std::string> apiPrefixes;  // besides docsd's own /api/
};

class PluginContext final : public Context {
 public:
  PluginContext(std::string pluginName, HostState& state);
  PluginContext(const PluginContext&) = delete;  // its handles refer to its own name
  PluginContext& operator=(const PluginContext&) = delete;
  const Config& config() const override;
  Db& db() override;
  JobQueue& jobs() override;
  EventBus& events() override;
  Logger& logger() override { return *logger_; }
  const std::string& dataDir() const override { return state_.dataDir; }
  Metrics& metrics() override { return state_.metrics ? *state_.metrics : Context::metrics(); }

 private:
  std::string name_;
  HostState& state_;
  std::shared_ptr<Logger> logger_;
  DeferredDb db_{name_, state_};
  DeferredJobQueue jobs_{name_, state_};
  DeferredEventBus events_{name_, state_};
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
  void clientEndpoint(ClientEndpoint endpoint) override;
  void clientSetting(std::string key, std::function<Json()> value) override;
  void apiPrefix(std::string prefix) override;
  void provideServiceById(std::string id, void* service) override;
  void needServiceById(std::string id, ServiceNeed need, ServiceSlot& slot) override;

 private:
  void claimClientKey(const std::string& key) const;
  std::string name_;
  PluginContext& context_;
  HostState& state_;
  Declarations& declarations_;
};

}  // namespace docs::core
