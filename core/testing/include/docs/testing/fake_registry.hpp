#pragma once
// The Registry a plugin configures itself against in a unit test: it records everything
// the plugin declares, lets the test provide the services the plugin needs, and calls the
// plugin's routes, event handlers, jobs, periodic tasks and commands the way docsd would,
// on the test's thread. Not part of the plugin ABI.

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <docs/registry.hpp>
#include <docs/testing/fake_context.hpp>

namespace docs::testing {

struct RecordedRoute {
  Method method = Method::Get;
  std::string pathTemplate;
  Handler handler;
  RouteOptions options;
  RouteDoc doc;
};

struct RecordedWebSocket {
  std::string path;
  WebSocketAcceptor acceptor;
  WebSocketOptions options;
};

struct RecordedMigration {
  int version = 0;
  std::string name;
  std::string sql;
};

struct RecordedPeriodic {
  std::string name;
  PeriodicOptions options;
  std::function<void()> task;
};

struct RecordedSubscription {
  std::string topic;
  EventHandler handler;
};

struct RecordedConfigKey {
  std::string key;
  std::string defaultValue;
  std::string description;
};

struct RecordedNeed {
  std::string id;
  ServiceNeed need = ServiceNeed::Required;
  ServiceSlot* slot = nullptr;
};

// How a test calls a route.
struct CallOptions {
  // The caller, as the Authenticator service would resolve it; none: anonymous.
  std::optional<Principal> principal{};
  HeaderList headers{};
  std::string host = "localhost";
  std::string scheme = "http";
  std::string remoteAddress = "127.0.0.1";
};

// What the route answered, or the error answer docsd makes of what it threw.
struct Answer {
  int status = 0;
  HeaderList headers;
  std::string body;
  std::optional<std::string> filePath;  // Response::file
  // what() of an exception other than HttpError, which docsd answers as a 500 "internal".
  std::string failure;

  std::optional<std::string> header(std::string_view name) const;
  // The body as JSON; throws std::runtime_error showing the body when it is not.
  Json json() const;
  // error.code of docsd's error body ("invalid_field", "not_found"), or "" when there is none.
  std::string errorCode() const;
};

class FakeRegistry final : public Registry {
 public:
  explicit FakeRegistry(FakeContext& context) : context_(context) {}
  FakeRegistry(const FakeRegistry&) = delete;
  FakeRegistry& operator=(const FakeRegistry&) = delete;

  // --- Registry: what the plugin calls in configure() ---
  FakeContext& context() override { return context_; }
  // Refuses, as docsd does, a template that does not start with '/' or a method and
  // template declared twice (std::invalid_argument).
  void route(Method method, std::string pathTemplate, Handler handler, RouteOptions options = {},
             RouteDoc doc = {}) override;
  void websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options = {}) override;
  void migration(int version, std::string name, std::string sql) override;
  void jobHandler(std::string kind, JobHandler handler) override;
  void periodic(std::string name, PeriodicOptions options, std::function<void()> task) override;
  void subscribe(std::string topic, EventHandler handler) override;
  // Also declares the key in the context's configuration with its default.
  void configKey(std::string key, std::string defaultValue, std::string description) override;
  void command(Command command) override;
  void clientEndpoint(ClientEndpoint endpoint) override;
  void clientSetting(std::string key, std::function<Json()> value) override;
  void apiPrefix(std::string prefix) override;
  void provideServiceById(std::string id, void* service) override;
  void needServiceById(std::string id, ServiceNeed need, ServiceSlot& slot) override;

  // --- What the plugin declared ---
  const std::vector<RecordedRoute>& routes() const { return routes_; }
  // The route declared with exactly this method and template, or nullptr.
  const RecordedRoute* findRoute(Method method, std::string_view pathTemplate) const;
  const std::vector<RecordedWebSocket>& websockets() const { return websockets_; }
  const std::vector<RecordedMigration>& migrations() const { return migrations_; }
  const std::map<std::string, JobHandler, std::less<>>& jobHandlers() const { return jobHandlers_; }
  const std::vector<RecordedPeriodic>& periodics() const { return periodics_; }
  const std::vector<RecordedSubscription>& subscriptions() const { return subscriptions_; }
  const std::vector<RecordedConfigKey>& configKeys() const { return configKeys_; }
  const RecordedConfigKey* findConfigKey(std::string_view key) const;
  const std::vector<Command>& commands() const { return commands_; }
  const std::vector<ClientEndpoint>& clientEndpoints() const { return clientEndpoints_; }
  // Names of the clientSetting keys, in declaration order.
  std::vector<std::string> clientSettingKeys() const;
  // A clientSetting's value, computed now as docsd computes it for /config.json; throws
  // std::out_of_range for a key the plugin did not declare.
  Json clientSettingValue(std::string_view key) const;
  const std::vector<std::string>& apiPrefixes() const { return apiPrefixes_; }
  const std::map<std::string, void*, std::less<>>& providedServices() const { return provided_; }
  // A service the plugin provided (provideService), or nullptr.
  template <class Service>
  Service* providedService() const {
    auto found = provided_.find(std::string_view(Service::kServiceId));
    return found == provided_.end() ? nullptr : static_cast<Service*>(found->second);
  }
  const std::vector<RecordedNeed>& needs() const { return needs_; }

  // --- The test's side ---
  // Another plugin's service for this plugin's require() and use(), given before resolve().
  // The test keeps it alive.
  template <class Service>
  void provide(Service& service) {
    testServices_[Service::kServiceId] = &service;
  }
  // What docsd does after every configure(): fills each ServiceRef the plugin declared, with
  // what provide() gave; an optional one nobody gave stays empty. Throws std::logic_error
  // naming every required service that was not provided.
  void resolve();

  // Calls the route that docsd would pick for this method and target ("/api/x/3?full=1": a
  // decoded path and a raw query): literal segments beat {params}, HEAD falls back to GET,
  // another method's route is a 405 with Allow, no route a 404. A body over the route's
  // maxBodyBytes is a 413 before the handler runs; a streaming route reads `body` through
  // its BodyReader. HttpError becomes docsd's error body; any other exception a 500 whose
  // message is in Answer::failure.
  Answer call(Method method, std::string_view target, std::string body = {}, const CallOptions& options = {});
  // Calls every handler subscribed to topic, in the order they were declared; returns how
  // many ran. What a handler throws reaches the test.
  std::size_t deliver(std::string_view topic, const Json& payload);
  // Takes what the plugin published (context().events()) and delivers each to its own
  // subscribers, again until nothing new is published; returns how many were taken.
  std::size_t deliverPublished();
  // Runs the handler of a job kind with this payload, as attempt `attempt`. What it throws
  // reaches the test (docsd would retry); std::out_of_range for an undeclared kind.
  void runJob(std::string_view kind, const Json& payload, int attempt = 1);
  // Takes the jobs the plugin enqueued (context().jobs()) and runs each, again until none
  // is left; returns how many ran.
  std::size_t runEnqueuedJobs();
  // Runs a periodic task once (by the name it was declared with).
  void runPeriodic(std::string_view name);
  // Runs a command as `docsd <name> args...` would; returns its exit code.
  int runCommand(std::string_view name, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

 private:
  FakeContext& context_;
  std::vector<RecordedRoute> routes_;
  std::vector<RecordedWebSocket> websockets_;
  std::vector<RecordedMigration> migrations_;
  std::map<std::string, JobHandler, std::less<>> jobHandlers_;
  std::vector<RecordedPeriodic> periodics_;
  std::vector<RecordedSubscription> subscriptions_;
  std::vector<RecordedConfigKey> configKeys_;
  std::vector<Command> commands_;
  std::vector<ClientEndpoint> clientEndpoints_;
  std::vector<std::pair<std::string, std::function<Json()>>> clientSettings_;
  std::vector<std::string> apiPrefixes_;
  std::map<std::string, void*, std::less<>> provided_;
  std::vector<RecordedNeed> needs_;
  std::map<std::string, void*, std::less<>> testServices_;
  std::uint64_t requests_ = 0;
};

}  // namespace docs::testing
