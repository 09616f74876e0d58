#pragma once
// What a plugin declares in configure(): routes, WebSocket endpoints, migrations, job
// handlers, periodic tasks, services, event subscriptions, configuration keys and
// command-line subcommands.
// configure() only declares: no I/O and no threads.

#include <chrono>
#include <functional>
#include <iosfwd>
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
  std::string name;                // the word after docsd: "generate"; not a core command
  std::string usage;               // its arguments, "SRC --out DIR [--report]"
  std::string summary;             // one line for `docsd help`
  std::vector<std::string> keys;   // configuration keys it reads (shown by `docsd help`)
  // Returns the exit code. context().config() is loaded; db(), jobs() and events() are not
  // available. Reads std::cin itself when it needs standard input.
  std::function<int(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)> run;
};

class Registry {
 public:
  virtual ~Registry();

  // The plugin's context; keep the reference, use it from start() on.
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
  // Publishes a service for other plugins. The plugin owns it and keeps it alive.
  virtual void provideServiceById(std::string id, void* service) = 0;

  template <class Service>
  void provideService(Service& service) {
    provideServiceById(Service::kServiceId, &service);
  }
};

}  // namespace docs
