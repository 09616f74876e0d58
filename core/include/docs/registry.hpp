#pragma once
// What a plugin declares in configure(): routes, WebSocket endpoints, migrations, job
// handlers, periodic tasks, the services it provides, requires and uses, event
// subscriptions, configuration keys, command-line subcommands, and what the web app is
// told in /config.json (its addresses and settings) and which paths are an API's.
// configure() only declares: no I/O and no threads.

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "docs/events.hpp"
#include "docs/http.hpp"
#include "docs/jobs.hpp"
#include "docs/route_doc.hpp"
#include "docs/websocket.hpp"

namespace docs {

class Context;
class Registry;

// Where the host puts a needed service once every plugin has configured.
struct ServiceSlot {
  void* service = nullptr;  // null: not resolved yet, or an optional service nobody provides
  bool resolved = false;
};

// Required: the start fails, naming the plugin and the service, when no loaded plugin
// provides it, and the provider starts first. Optional: the ref stays empty when absent,
// and the order is not constrained.
enum class ServiceNeed : std::uint8_t { Required, Optional };

// Another plugin's service, declared in configure() with Registry::require or
// Registry::use and filled by the host after every plugin's configure(), before any
// start(). Keep it where it was declared (a member of the plugin or of an object the
// plugin owns): the host holds its address, so it can be neither copied nor moved.
// Service declares `static constexpr const char* kServiceId`.
template <class Service>
class ServiceRef {
 public:
  ServiceRef() = default;
  ServiceRef(const ServiceRef&) = delete;
  ServiceRef& operator=(const ServiceRef&) = delete;

  // The service, or nullptr (an optional one that no loaded plugin provides, or not yet resolved).
  Service* get() const { return static_cast<Service*>(slot_.service); }
  explicit operator bool() const { return slot_.service != nullptr; }
  // Throws std::logic_error naming the service when there is none.
  Service& operator*() const {
    if (!slot_.service) {
      throw std::logic_error(std::string("service ") + Service::kServiceId +
                             (slot_.resolved ? " is optional and no loaded plugin provides it"
                                             : " was used before the host resolved it (during configure(), "
                                               "or never declared with require() or use())"));
    }
    return *static_cast<Service*>(slot_.service);
  }
  Service* operator->() const { return &**this; }

 private:
  ServiceSlot slot_;
  friend class Registry;
};

struct PeriodicOptions {
  std::chrono::milliseconds interval{60000};
  // Runs on one node at a time across a cluster (PostgreSQL advisory lock).
  bool singleton = true;
};

// A subcommand of docsd: `docsd <name> ARGS...`. docsd runs it with no server and no
// database: it loads the plugins that would load for `docsd serve` (plugins.enabled),
// calls their configure(), and calls `run` with every word after the name. `docsd help`
// lists it, with its plugin, while the plugin would load.
struct Command {
  std::string name;               // the word after docsd: "generate"; not a core command
  std::string usage;              // its arguments, "SRC --out DIR [--report]"
  std::string summary;            // one line for `docsd help`
  std::vector<std::string> keys;  // configuration keys it reads (shown by `docsd help`)
  // Returns the exit code. context().config() is loaded; db(), jobs() and events() are not
  // available. Reads std::cin itself when it needs standard input.
  std::function<int(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)> run;
};

// An address the web app talks to: /config.json gives it under `key`, and the web app's
// Content-Security-Policy allows its origin in connect-src. It is the public origin
// (server.public_url, else the request's) with `path` appended; with server.subhosts the
// host is `subhost` + "." + the public host. `webSocket`: ws:// or wss:// by the public scheme.
//   {"ragUrl", "rag"}                        -> https://rag.docs.example.com
//   {"collabUrl", "y", "/collaboration", true} -> wss://y.docs.example.com/collaboration
// (Every member has an initializer, so {"ragUrl", "rag"} is clean under -Wextra.)
struct ClientEndpoint {
  std::string key{};      // the /config.json key, "ragUrl"
  std::string subhost{};  // a DNS label, "rag"
  std::string path{};     // "" or starting with '/'
  bool webSocket = false;
};

class Registry {
 public:
  virtual ~Registry();

  // The plugin's context; keep the reference. Its db(), jobs() and events() handles may be
  // taken now and used from start() on.
  virtual Context& context() = 0;

  // Path templates use {name} segments: "/api/project/{id}". `doc` describes the route in
  // GET /api/openapi.json (docs/route_doc.hpp); without it the route is listed bare.
  virtual void route(Method method, std::string pathTemplate, Handler handler, RouteOptions options = {},
                     RouteDoc doc = {}) = 0;
  virtual void websocket(std::string path, WebSocketAcceptor acceptor, WebSocketOptions options = {}) = 0;
  // Ordered by version, applied once each under an advisory lock; an applied migration
  // whose text changed stops the start.
  virtual void migration(int version, std::string name, std::string sql) = 0;
  virtual void jobHandler(std::string kind, JobHandler handler) = 0;
  virtual void periodic(std::string name, PeriodicOptions options, std::function<void()> task) = 0;
  virtual void subscribe(std::string topic, EventHandler handler) = 0;
  // Declares a configuration key (documented by `docsd --help`).
  virtual void configKey(std::string key, std::string defaultValue, std::string description) = 0;
  // Declares a subcommand (see Command). Names are unique across plugins.
  virtual void command(Command command) = 0;
  // The web app's configuration (GET /config.json): an address (see ClientEndpoint) or a
  // value. A key is the plugin's alone: docsd's own (mode, features, apiUrl, contactEmail)
  // and another plugin's are refused. `value` is called once, after every plugin's
  // start() and before docsd listens; a throw stops the start, naming the plugin.
  virtual void clientEndpoint(ClientEndpoint endpoint) = 0;
  virtual void clientSetting(std::string key, std::function<Json()> value) = 0;
  // A path prefix that is an API's, like docsd's own "/api/": a request below it that no
  // route matches answers a JSON 404 (405 for another method), never the web app.
  // Starts and ends with '/', and is not "/": "/lab/".
  virtual void apiPrefix(std::string prefix) = 0;
  // Publishes a service for other plugins. The plugin owns it and keeps it alive.
  virtual void provideServiceById(std::string id, void* service) = 0;

  template <class Service>
  void provideService(Service& service) {
    provideServiceById(Service::kServiceId, &service);
  }

  // Declares a service this plugin needs (see ServiceRef and ServiceNeed); the host fills
  // `slot` after every configure(). Plugins call require() or use().
  virtual void needServiceById(std::string id, ServiceNeed need, ServiceSlot& slot) = 0;

  // The plugin cannot work without it: the provider starts first, and docsd does not start
  // without one.
  template <class Service>
  void require(ServiceRef<Service>& ref) {
    needServiceById(Service::kServiceId, ServiceNeed::Required, ref.slot_);
  }
  // The plugin works without it (check the ref, or get() for nullptr); no order is implied,
  // so two plugins may use each other.
  template <class Service>
  void use(ServiceRef<Service>& ref) {
    needServiceById(Service::kServiceId, ServiceNeed::Optional, ref.slot_);
  }
};

}  // namespace docs
