#include "app/application.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "app/install_layout.hpp"
#include "app/plugin_host.hpp"
#include "app/service_graph.hpp"
#include "db/embedded_postgres.hpp"
#include "db/pg_pool.hpp"
#include "docs/services/authenticator.hpp"
#include "events/event_bus.hpp"
#include "http/http_server.hpp"
#include "http/openapi.hpp"
#include "http/websocket_hub.hpp"
#include "jobs/background.hpp"
#include "jobs/job_queue.hpp"
#include "log/logging.hpp"
#include "metrics/core_metrics.hpp"
#include "metrics/metrics_access.hpp"
#include "metrics/metrics_registry.hpp"
#include "plugins/plugin_loader.hpp"
#include "util/dir_lock.hpp"
#include "util/service_notify.hpp"

namespace fs = std::filesystem;

namespace docs::core {

namespace {

std::string executableDir() {
  std::error_code ec;
  auto path = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path().string() : path.parent_path().string();
}

std::string nodeId() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::mt19937 random{std::random_device{}()};
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + std::to_string(random() % 100000);
}

std::vector<Migration> coreMigrations() { return coreJobsMigrations(); }

}  // namespace

Paths resolvePaths(const ConfigStore& config) {
  Paths paths;
  paths.dataDir = config.getString("data_dir");
  if (paths.dataDir.empty()) {
    if (::geteuid() == 0) {
      paths.dataDir = "/var/lib/docsd";
    } else if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
      paths.dataDir = std::string(xdg) + "/docsd";
    } else {
      const char* home = std::getenv("HOME");
      paths.dataDir = std::string(home ? home : ".") + "/.local/share/docsd";
    }
  }
  paths.dataDir = fs::absolute(paths.dataDir).lexically_normal().string();
  std::string exeDir = executableDir();
  paths.pluginsDir = config.getString("plugins.dir");
  if (paths.pluginsDir.empty()) paths.pluginsDir = defaultPluginsDir(exeDir);
  paths.webRoot = config.getString("server.web_root");
  if (paths.webRoot.empty()) paths.webRoot = defaultWebRoot(exeDir, fs::current_path().string());
  return paths;
}

struct Application::Running {
  std::shared_ptr<Logger> log = makeLogger("core");
  // First, so it outlives every component and plugin holding one of its metrics.
  std::unique_ptr<MetricsRegistry> metrics = std::make_unique<MetricsRegistry>();
  Paths paths;
  std::unique_ptr<DirLock> lock;
  HostState state;
  Declarations declarations;
  std::vector<PluginCandidate> order;
  std::vector<std::string> discovered;  // every plugin file's name, loaded or not
  std::vector<std::unique_ptr<Plugin>> plugins;
  std::vector<std::unique_ptr<PluginContext>> contexts;
  std::unique_ptr<EmbeddedPostgres> embedded;
  std::unique_ptr<PgPool> pool;
  std::unique_ptr<LocalEventBus> events;
  std::unique_ptr<PgJobQueue> jobs;
  std::unique_ptr<NotificationListener> listener;
  std::unique_ptr<Scheduler> scheduler;
  std::unique_ptr<WebSocketHub> hub;
  std::unique_ptr<HttpServer> http;
  struct Started {
    std::string name;
    Plugin* plugin;
  };
  std::vector<Started> started;  // in start order
  std::atomic<bool> ready{false};
};

Application::Application(ConfigStore& config) : config_(config) {}
Application::~Application() = default;

void Application::declarePluginKeys() {
  Paths paths = resolvePaths(config_);
  HostState state;
  state.config = &config_;
  Declarations declarations;
  for (const auto& candidate : inspectPluginDir(paths.pluginsDir)) {
    if (!candidate.loadable) continue;
    try {
      auto plugin = instantiate(candidate);
      PluginContext context(candidate.name, state);
      PluginRegistry registry(candidate.name, context, state, declarations);
      plugin->configure(registry);
      static_cast<void>(plugin.release());  // never destroyed: its code stays loaded anyway
    } catch (const std::exception&) {
    }
  }
}

namespace {

// The plugins that would load for `docsd serve`, configure()d: declarations only (no
// database, no server), for `docsd help` and the plugins' subcommands.
struct ConfiguredPlugins {
  std::string pluginsDir;
  HostState state;
  std::vector<PluginCandidate> candidates;
  std::vector<std::string> enabled;
  std::string selectionError;                  // plugins.enabled cannot be met: nothing loads
  std::set<std::string> loaded;                // configured
  std::map<std::string, std::string> refused;  // would load, but configure() threw: why
  std::vector<std::unique_ptr<PluginContext>> contexts;
  std::vector<std::unique_ptr<Plugin>> plugins;
  ServiceResolution services;  // its problems are warnings here
  Declarations declarations;   // destroyed first: its functions may point into the plugins
};

// The services a plugin provides, configured on its own (it does not load).
std::vector<std::string> servicesProvidedBy(const PluginCandidate& candidate, ConfigStore& config,
                                            const std::string& dataDir) {
  HostState state;
  state.config = &config;
  state.dataDir = dataDir;
  std::vector<std::string> ids;
  try {
    auto plugin = instantiate(candidate);
    PluginContext context(candidate.name, state);
    Declarations declarations;
    PluginRegistry registry(candidate.name, context, state, declarations);
    plugin->configure(registry);
    for (const auto& [id, owner] : state.provided.owners) ids.push_back(id);
  } catch (const std::exception&) {
  }
  return ids;
}

// Says which plugin that does not load would provide a missing service, and why it does
// not load. The plugins not loaded are configured only when asked (a start that fails).
WhyServiceAbsent providersNotLoaded(const std::vector<PluginCandidate>& candidates, const std::set<std::string>& loaded,
                                    const std::vector<std::string>& enabled, ConfigStore& config,
                                    const std::string& dataDir) {
  auto known = std::make_shared<std::optional<std::map<std::string, std::string, std::less<>>>>();
  return [=, &config](std::string_view id) -> std::string {
    if (!*known) {
      known->emplace();
      for (const auto& candidate : candidates) {
        if (!candidate.loadable || loaded.count(candidate.name)) continue;
        std::string why = whyNotEnabled(candidate, enabled);
        if (why.empty()) continue;
        for (const auto& service : servicesProvidedBy(candidate, config, dataDir))
          (*known)->emplace(service, candidate.name + ": " + why);
      }
    }
    auto it = (*known)->find(id);
    return it == (*known)->end() ? "" : it->second;
  };
}

std::vector<PluginNode> pluginNodes(const std::vector<PluginCandidate>& order) {
  std::vector<PluginNode> nodes;
  for (const auto& candidate : order) nodes.push_back({candidate.name, candidate.dependencies});
  return nodes;
}

void configurePlugins(ConfigStore& config, ConfiguredPlugins& c) {
  Paths paths = resolvePaths(config);
  c.pluginsDir = paths.pluginsDir;
  c.state.config = &config;
  c.state.dataDir = paths.dataDir;
  c.candidates = inspectPluginDir(paths.pluginsDir);
  c.enabled = config.getList("plugins.enabled");
  std::vector<PluginCandidate> order;
  try {
    order = selectAndOrder(c.candidates, c.enabled);
  } catch (const std::exception& error) {
    c.selectionError = error.what();
  }
  std::vector<PluginCandidate> configured;
  for (const auto& candidate : order) {
    std::unique_ptr<Plugin> plugin;
    auto context = std::make_unique<PluginContext>(candidate.name, c.state);
    try {
      plugin = instantiate(candidate);
      PluginRegistry registry(candidate.name, *context, c.state, c.declarations);
      plugin->configure(registry);
    } catch (const std::exception& error) {
      c.refused[candidate.name] = error.what();
      std::erase_if(c.declarations.commands, [&](const DeclaredCommand& d) { return d.owner == candidate.name; });
      std::erase_if(c.declarations.clientEndpoints,
                    [&](const DeclaredEndpoint& d) { return d.owner == candidate.name; });
      std::erase_if(c.declarations.clientSettings, [&](const DeclaredSetting& d) { return d.owner == candidate.name; });
      // What it did declare may point into it: never destroyed (its code stays loaded anyway).
      (void)plugin.release();
      (void)context.release();
      continue;
    }
    c.loaded.insert(candidate.name);
    c.plugins.push_back(std::move(plugin));
    c.contexts.push_back(std::move(context));
    configured.push_back(candidate);
  }
  c.state.commandRuns = true;
  c.services = resolveServices(pluginNodes(configured), c.state.needs, c.state.provided,
                               providersNotLoaded(c.candidates, c.loaded, c.enabled, config, c.state.dataDir));
}

// For help and the plugins' commands a missing service or a cycle is a warning: the
// command may not need it.
void warnAboutServices(const ServiceResolution& services) {
  if (services.problems.empty()) return;
  auto log = makeLogger("core");
  for (const auto& problem : services.problems) log->warn("docsd serve would not start", {{"error", problem}});
}

// Whether a plugin that does not load declares the command: configured on its own, apart
// from the loaded ones.
bool declaresCommand(const PluginCandidate& candidate, const std::string& name, ConfigStore& config,
                     const std::string& dataDir) {
  HostState state;
  state.config = &config;
  state.dataDir = dataDir;
  try {
    auto plugin = instantiate(candidate);
    PluginContext context(candidate.name, state);
    Declarations declarations;
    PluginRegistry registry(candidate.name, context, state, declarations);
    plugin->configure(registry);
    for (const auto& declared : declarations.commands)
      if (declared.command.name == name) return true;
  } catch (const std::exception&) {
  }
  return false;
}

}  // namespace

std::vector<PluginCommandInfo> Application::pluginCommands() {
  ConfiguredPlugins c;
  configurePlugins(config_, c);
  warnAboutServices(c.services);
  std::vector<PluginCommandInfo> commands;
  for (const auto& [command, owner] : c.declarations.commands)
    commands.push_back({command.name, command.usage, command.summary, command.keys, owner});
  return commands;
}

std::optional<int> Application::runPluginCommand(const std::string& name, const std::vector<std::string>& args,
                                                 std::ostream& out, std::ostream& err) {
  ConfiguredPlugins c;
  configurePlugins(config_, c);
  for (const auto& declared : c.declarations.commands)
    if (declared.command.name == name) {
      warnAboutServices(c.services);
      return declared.command.run(args, out, err);
    }
  for (const auto& candidate : c.candidates) {
    if (!candidate.loadable || c.loaded.count(candidate.name) || c.refused.count(candidate.name)) continue;
    if (!declaresCommand(candidate, name, config_, c.state.dataDir)) continue;
    std::string why = c.selectionError.empty() ? whyNotEnabled(candidate, c.enabled)
                                               : "docsd would not load its plugins: " + c.selectionError;
    err << "docsd: `docsd " << name << "` is provided by the " << candidate.name
        << " plugin, which is not loaded: " << why << "\n";
    return kExitUnavailable;
  }
  err << "docsd: unknown command '" << name << "'\n";
  // Plugins that could not say whether they provide it.
  for (const auto& [plugin, why] : c.refused)
    err << "  (plugin " << plugin << " refused to configure: " << why << ")\n";
  for (const auto& candidate : c.candidates)
    if (!candidate.loadable) err << "  (" << candidate.path << " is not loadable: " << candidate.problem << ")\n";
  if (c.candidates.empty()) err << "  (no plugins in " << c.pluginsDir << ")\n";
  return std::nullopt;
}

int Application::listPlugins(std::ostream& out) {
  ConfiguredPlugins configured;
  configurePlugins(config_, configured);
  const auto& candidates = configured.candidates;
  out << "plugins in " << configured.pluginsDir << " (plugin ABI " << kPluginAbi << "):\n";
  if (candidates.empty()) out << "  (none)\n";
  const auto& enabled = configured.enabled;
  for (const auto& c : candidates) {
    out << "  " << c.name;
    if (!c.version.empty()) out << " " << c.version;
    if (!c.dependencies.empty()) {
      out << " (needs";
      for (const auto& d : c.dependencies) out << " " << d;
      out << ")";
    }
    if (!c.loadable) out << ": NOT LOADABLE: " << c.problem;
    else if (auto why = whyNotEnabled(c, enabled); !why.empty()) out << ": " << why;
    else out << ": enabled";
    if (!c.description.empty()) out << "\n      " << c.description;
    if (configured.loaded.count(c.name))
      if (auto services = describeServices(c.name, configured.state.needs, configured.state.provided);
          !services.empty())
        out << "\n      " << services;
    out << "\n      " << c.path << "\n";
  }
  if (!configured.selectionError.empty()) {
    out << "docsd would not start: " << configured.selectionError << "\n";
    return 1;
  }
  out << "start order:";
  for (const auto& name : configured.services.order) out << " " << name;
  out << "\n";
  for (const auto& [plugin, why] : configured.refused)
    out << "docsd would not start: plugin " << plugin << " refused to configure: " << why << "\n";
  for (const auto& problem : configured.services.problems) out << "docsd would not start: " << problem << "\n";
  return configured.refused.empty() && configured.services.problems.empty() ? 0 : 1;
}

namespace {

// Uploads, clones, sign-in mail and keys live here: nobody else may list or read them.
// When root hands the embedded cluster to the postgres user, that user must still pass
// through (0711: traverse, never list).
void closeDataDir(const std::string& dataDir, bool embeddedRunsAsAnotherUser, Logger& log) {
  mode_t mode = embeddedRunsAsAnotherUser ? 0711 : 0700;
  struct stat info {};
  if (::stat(dataDir.c_str(), &info) != 0) return;
  if ((info.st_mode & 07777) == mode) return;
  if (info.st_uid != geteuid()) {
    log.warn("the data directory belongs to another user; its permissions are left as they are",
             {{"data_dir", dataDir}});
    return;
  }
  if (::chmod(dataDir.c_str(), mode) != 0) log.warn("cannot restrict the data directory", {{"data_dir", dataDir}});
}

// A malformed metrics.allowed_cidrs is a configuration error before anything starts.
void checkMetricsAccess(const ConfigStore& config) {
  try {
    MetricsAccess check(config.getList("metrics.allowed_cidrs"), config.getString("metrics.token"));
  } catch (const std::invalid_argument& error) {
    throw ConfigError(error.what());
  }
}

// Fills the plugins' service refs and puts r.plugins and r.order in start order. A
// missing required service or a cycle stops `serve`; for `migrate` it is a warning.
void resolvePluginServices(ConfigStore& config, Application::Running& r, const std::vector<PluginCandidate>& candidates,
                           bool strict) {
  std::set<std::string> loaded;
  for (const auto& candidate : r.order) loaded.insert(candidate.name);
  auto resolution = resolveServices(
      pluginNodes(r.order), r.state.needs, r.state.provided,
      providersNotLoaded(candidates, loaded, config.getList("plugins.enabled"), config, r.paths.dataDir));
  if (!resolution.problems.empty()) {
    if (strict) {
      std::string all;
      for (const auto& problem : resolution.problems) all += (all.empty() ? "" : "; ") + problem;
      throw PluginLoadError(all);
    }
    for (const auto& problem : resolution.problems) r.log->warn("docsd serve would not start", {{"error", problem}});
  }
  std::vector<PluginCandidate> order;
  std::vector<std::unique_ptr<Plugin>> plugins;
  for (const auto& name : resolution.order)
    for (std::size_t i = 0; i < r.order.size(); ++i)
      if (r.order[i].name == name) {
        order.push_back(std::move(r.order[i]));
        plugins.push_back(std::move(r.plugins[i]));
      }
  r.order = std::move(order);
  r.plugins = std::move(plugins);
}

// Steps shared by serve and migrate: lock, plugins, configure, services, database,
// migrations. `strictServices`: a missing required service stops here.
void prepare(ConfigStore& config, Application::Running& r, bool strictServices) {
  r.paths = resolvePaths(config);
  r.state.config = &config;
  r.state.dataDir = r.paths.dataDir;
  r.state.metrics = r.metrics.get();
  r.lock = std::make_unique<DirLock>(r.paths.dataDir);
  closeDataDir(r.paths.dataDir, geteuid() == 0 && config.getString("database.url").empty(), *r.log);

  auto candidates = inspectPluginDir(r.paths.pluginsDir);
  for (const auto& c : candidates) r.discovered.push_back(c.name);
  std::vector<std::string> skipped;
  r.order = selectAndOrder(candidates, config.getList("plugins.enabled"), &skipped);
  for (const auto& line : skipped) r.log->info("plugin not loaded", {{"plugin", line}});
  for (const auto& candidate : r.order) {
    auto plugin = instantiate(candidate);
    auto context = std::make_unique<PluginContext>(candidate.name, r.state);
    PluginRegistry registry(candidate.name, *context, r.state, r.declarations);
    try {
      plugin->configure(registry);
    } catch (const ConfigError& error) {
      throw ConfigError("plugin " + candidate.name + ": " + error.what());  // exit 78, not a plugin fault
    } catch (const std::exception& error) {
      throw PluginLoadError("plugin " + candidate.name + " refused to configure: " + error.what());
    }
    r.log->info("plugin configured", {{"plugin", candidate.name}, {"version", candidate.version}});
    r.plugins.push_back(std::move(plugin));
    r.contexts.push_back(std::move(context));
  }
  resolvePluginServices(config, r, candidates, strictServices);
  for (const auto& unknown : config.unknownSettings()) r.log->warn("unknown setting (typo?)", {{"setting", unknown}});

  std::string url = config.getString("database.url");
  if (url.empty()) {
    EmbeddedPostgresOptions options;
    options.baseDir = r.paths.dataDir + "/pg";
    options.binDir = config.getString("database.postgres_bin_dir");
    options.runAsUser = config.getString("database.embedded_user");
    r.embedded = std::make_unique<EmbeddedPostgres>(options, r.log);
    r.embedded->start();
    url = r.embedded->url();
  }
  PgPoolOptions poolOptions;
  poolOptions.url = url;
  poolOptions.size = static_cast<int>(config.getInt("database.pool_size"));
  poolOptions.statementTimeoutMs = static_cast<int>(config.getInt("database.statement_timeout_ms"));
  r.pool = std::make_unique<PgPool>(poolOptions);

  std::vector<Migration> migrations = coreMigrations();
  migrations.insert(migrations.end(), r.declarations.migrations.begin(), r.declarations.migrations.end());
  auto report = applyMigrations(*r.pool, migrations);
  for (const auto& applied : report.applied) r.log->info("migration applied", {{"migration", applied}});
  r.state.db = r.pool.get();
}

// What /readyz answers: started, and the database answers.
bool readyNow(Application::Running& r) {
  if (!r.ready) return false;
  try {
    r.pool->exec("SELECT 1");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// Tells the service manager (systemd, Type=notify) that docsd is started once /readyz
// holds. Returns the stop signal that came first, or 0 once notified.
int notifyWhenReady(Application::Running& r, const ServiceNotifier& notifier, const sigset_t& stopSignals) {
  if (!notifier.enabled()) return 0;
  const timespec pause{0, 200 * 1000 * 1000};
  while (!readyNow(r)) {
    int received = ::sigtimedwait(&stopSignals, nullptr, &pause);
    if (received > 0) return received;
  }
  if (!notifier.notify("READY=1\nSTATUS=serving on port " + std::to_string(r.http->port()) + "\n"))
    r.log->warn("the service manager did not take the readiness notification");
  return 0;
}

std::chrono::milliseconds stopGrace(const Application::Running& r) {
  constexpr std::int64_t kDefaultMs = 10000;
  try {
    return std::chrono::milliseconds(
        r.state.config ? std::max<std::int64_t>(0, r.state.config->getInt("server.stop_grace_ms")) : kDefaultMs);
  } catch (const std::exception&) {
    return std::chrono::milliseconds(kDefaultMs);  // a bad value must not stop the stop
  }
}

// Stops in reverse order, each wait bounded by server.stop_grace_ms. False when a job or
// an event handler still runs at the end: the components it may use (the pool, the
// plugins, the queue and the bus) must then outlive this call, until the process exits.
bool shutdown(Application::Running& r) {
  r.ready = false;
  const auto grace = stopGrace(r);
  if (r.http) r.http->stop();
  if (r.hub) r.hub->stop();
  if (r.scheduler) r.scheduler->stop();
  if (r.jobs) r.jobs->stop(grace);
  // Event delivery goes on through the stops: a plugin gets what was queued before its
  // stop() and nothing after, and what it publishes there reaches those still running.
  for (auto it = r.started.rbegin(); it != r.started.rend(); ++it) {
    if (r.events) r.events->closeFor(it->name, grace);
    try {
      it->plugin->stop();
    } catch (const std::exception& error) {
      r.log->error("plugin stop failed", {{"plugin", it->name}, {"error", error.what()}});
    }
  }
  r.started.clear();
  const bool eventsEnded = !r.events || r.events->stop(grace);
  // A job that overran the first wait may still be using the database: wait for it again.
  const bool jobsEnded = !r.jobs || r.jobs->waitForRunning(grace);
  if (r.listener) r.listener->stop();
  if (eventsEnded && jobsEnded) {
    r.state.db = nullptr;
    r.pool.reset();
  } else {
    r.log->error("the database pool stays open until docsd exits: a job or an event handler still runs");
  }
  if (r.embedded) r.embedded->stop();
  return eventsEnded && jobsEnded;
}

// What shutdown() could not stop keeps running until the process exits: its components stay.
void finish(std::unique_ptr<Application::Running>& running) {
  if (!shutdown(*running)) static_cast<void>(running.release());
}

}  // namespace

int Application::migrate() {
  running_ = std::make_unique<Running>();
  try {
    prepare(config_, *running_, false);
  } catch (const ConfigError& error) {
    running_->log->error("migrate failed: a setting", {{"error", error.what()}});
    std::cerr << "docsd: configuration: " << error.what() << "\n";
    finish(running_);
    return kExitConfig;
  } catch (const std::exception& error) {
    running_->log->error("migrate failed", {{"error", error.what()}});
    std::cerr << "docsd: " << error.what() << "\n";
    finish(running_);
    return 1;
  }
  finish(running_);
  return 0;
}

int Application::serve() {
  running_ = std::make_unique<Running>();
  Running& r = *running_;
  const ServiceNotifier notifier = ServiceNotifier::fromEnvironment();  // before any child starts
  try {
    checkMetricsAccess(config_);
    prepare(config_, r, true);
    std::string node = nodeId();
    r.events = std::make_unique<LocalEventBus>(r.pool.get(), node, makeLogger("events"));
    for (auto& subscription : r.declarations.subscriptions)
      r.events->subscribe(subscription.topic, subscription.owner, subscription.handler);
    registerEventBusMetrics(*r.metrics, *r.events);
    registerPoolMetrics(*r.metrics, *r.pool);
    registerProcessMetrics(*r.metrics);
    // Publishing works from start() on; delivery waits for every start() (below).
    r.state.events = r.events.get();

    JobQueueOptions jobOptions;
    jobOptions.workers = static_cast<int>(config_.getInt("jobs.workers"));
    jobOptions.leaseSeconds = static_cast<int>(config_.getInt("jobs.lease_seconds"));
    jobOptions.pollMs = static_cast<int>(config_.getInt("jobs.poll_ms"));
    jobOptions.nodeId = node;
    r.jobs = std::make_unique<PgJobQueue>(*r.pool, jobOptions, makeLogger("jobs"));
    for (auto& [kind, handler] : r.declarations.jobHandlers) r.jobs->addHandler(kind, handler);
    r.jobs->setMetrics(*r.metrics);
    registerJobQueueDepth(*r.metrics, *r.pool);
    r.state.jobs = r.jobs.get();

    r.listener = std::make_unique<NotificationListener>(
        *r.pool, std::vector<std::string>{"docs_jobs", "docs_events"},
        [&r](const std::string& channel, const std::string& payload) {
          if (channel == "docs_jobs") r.jobs->wake();
          else r.events->receiveRemote(payload);
        },
        makeLogger("listener"));
    r.listener->start();
    if (!r.listener->waitUntilListening(std::chrono::seconds(10)))
      r.log->warn("notification listener is not listening yet; events from other nodes may be missed");

    for (std::size_t i = 0; i < r.plugins.size(); ++i) {
      try {
        r.plugins[i]->start();
      } catch (const ConfigError& error) {
        throw ConfigError("plugin " + r.order[i].name + ": " + error.what());
      } catch (const std::exception& error) {
        throw PluginLoadError("plugin " + r.order[i].name + " failed to start: " + error.what());
      }
      r.started.push_back({r.order[i].name, r.plugins[i].get()});
    }
    // Every start() returned: now events (queued ones first), jobs, periodic tasks,
    // WebSockets and requests may reach the plugins.
    r.events->start();
    r.jobs->start();
    r.scheduler = std::make_unique<Scheduler>(*r.pool, makeLogger("scheduler"));
    r.scheduler->add(
        {"core.jobs_cleanup", std::chrono::hours(1), true,
         [&r] { r.pool->exec("DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'"); }});
    for (auto& task : r.declarations.periodicTasks) r.scheduler->add(task);
    r.scheduler->start();

    r.hub =
        std::make_unique<WebSocketHub>(static_cast<int>(config_.getInt("websocket.workers")), makeLogger("websocket"));
    r.hub->start();

    HttpServerOptions http;
    http.host = config_.getString("server.host");
    http.port = static_cast<int>(config_.getInt("server.port"));
    http.maxThreads = static_cast<int>(config_.getInt("server.max_threads"));
    http.maxQueued = static_cast<int>(config_.getInt("server.max_queued"));
    http.headerTimeoutMs = static_cast<int>(config_.getInt("server.header_timeout_ms"));
    http.keepAliveTimeoutMs = static_cast<int>(config_.getInt("server.keep_alive_timeout_ms"));
    http.bodyTimeoutMs = static_cast<int>(config_.getInt("server.body_timeout_ms"));
    http.bodyGraceMs = static_cast<int>(config_.getInt("server.body_grace_ms"));
    http.bodyMinRate =
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, config_.getInt("server.body_min_rate_bytes")));
    http.maxConnectionsPerAddress =
        static_cast<std::size_t>(std::max<std::int64_t>(0, config_.getInt("server.max_connections_per_address")));
    http.maxWebSocketsPerAddress =
        static_cast<std::size_t>(std::max<std::int64_t>(0, config_.getInt("server.max_websockets_per_address")));
    http.anonymousBodyBytes =
        static_cast<std::size_t>(std::max<std::int64_t>(0, config_.getInt("server.anonymous_body_bytes")));
    http.anonymousBodyBudgetBytes =
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, config_.getInt("server.anonymous_body_budget_bytes")));
    http.allowedOrigins = config_.getList("server.allowed_origins");
    std::string publicUrl = config_.getString("server.public_url");
    while (!publicUrl.empty() && publicUrl.back() == '/') publicUrl.pop_back();
    if (!publicUrl.empty()) http.allowedOrigins.push_back(publicUrl);
    // Every plugin has configured: the routes are final, so the document is built once.
    OpenApiInfo api;
    api.serverUrl = publicUrl;
    for (const auto& c : r.order) api.plugins.emplace_back(c.name, c.version);
    addOpenApiRoute(r.declarations.router, r.declarations.openApiSchemas, api);
    http.trustedProxies = config_.getList("server.trusted_proxies");
    http.webRoot = r.paths.webRoot;
    http.compression = config_.getBool("server.compression");
    http.metricsAllowedCidrs = config_.getList("metrics.allowed_cidrs");
    http.metricsToken = config_.getString("metrics.token");

    // /config.json: docsd's own keys, then what the plugins declared. `features` names every
    // plugin file found, true when it loaded.
    std::map<std::string, bool> features;
    for (const auto& name : r.discovered) features[name] = false;
    for (const auto& c : r.order) features[c.name] = true;
    Json clientSettings = {{"mode", config_.getString("server.mode")},
                           {"features", features},
                           {"contactEmail", config_.getString("site.contact_email")}};
    for (const auto& setting : r.declarations.clientSettings) {
      try {
        clientSettings[setting.key] = setting.value();
      } catch (const std::exception& error) {
        throw PluginLoadError("plugin " + setting.owner + " failed to give the /config.json key " + setting.key + ": " +
                              error.what());
      }
    }
    std::vector<ClientEndpoint> endpoints{coreApiEndpoint()};
    for (const auto& declared : r.declarations.clientEndpoints) endpoints.push_back(declared.endpoint);
    bool subhosts = config_.getBool("server.subhosts");
    http.apiPrefixes = r.declarations.apiPrefixes;
    http.browser.publicUrl = publicUrl;
    http.browser.subhosts = subhosts;
    http.browser.endpoints = endpoints;
    http.browser.spaPolicyOverride = config_.getString("server.content_security_policy");
    http.browser.hstsMaxAge = std::max<std::int64_t>(0, config_.getInt("server.hsts_max_age"));
    http.browser.hstsIncludeSubdomains = config_.getBool("server.hsts_include_subdomains");

    ServerHooks hooks;
    hooks.ready = [&r] { return readyNow(r); };
    hooks.metrics = r.metrics.get();
    hooks.clientConfig = [=](const Request& request) {
      // The same rule gives the SPA's connect-src (http/browser_headers.cpp).
      Json config = clientSettings;
      for (auto& [key, url] : clientUrls(publicUrl, subhosts, request.scheme(), request.host(), endpoints))
        config[key] = std::move(url);
      return config;
    };
    if (auto* authenticator = r.state.provided.services.count(Authenticator::kServiceId)
                                  ? static_cast<Authenticator*>(r.state.provided.services[Authenticator::kServiceId])
                                  : nullptr) {
      hooks.authenticate = [authenticator](const Request& request) { return authenticator->authenticate(request); };
    }
    bool accessLog = config_.getBool("log.access");
    r.http = std::make_unique<HttpServer>(http, r.declarations.router, r.declarations.websockets, *r.hub, hooks,
                                          accessLog ? makeLogger("http") : nullptr);
    r.http->start();
    std::string portFile = config_.getString("server.port_file");
    if (!portFile.empty()) {
      std::string temp = portFile + ".tmp";
      std::ofstream(temp) << r.http->port() << "\n";
      fs::rename(temp, portFile);
    }
    r.ready = true;
    r.log->info("docsd listening", {{"url", "http://" + http.host + ":" + std::to_string(r.http->port())},
                                    {"port", r.http->port()},
                                    {"data_dir", r.paths.dataDir},
                                    {"plugins", static_cast<int>(r.order.size())}});
  } catch (const ConfigError& error) {
    r.log->error("docsd could not start: a setting", {{"error", error.what()}});
    std::cerr << "docsd: configuration: " << error.what() << "\n";
    finish(running_);
    return kExitConfig;
  } catch (const std::exception& error) {
    r.log->error("docsd could not start", {{"error", error.what()}});
    std::cerr << "docsd: " << error.what() << "\n";
    finish(running_);
    return 1;
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGQUIT);
  int received = notifyWhenReady(r, notifier, signals);
  if (received == 0) sigwait(&signals, &received);
  notifier.notify("STOPPING=1\n");
  r.log->info("shutting down", {{"signal", received}});
  finish(running_);
  r.log->info("stopped");  // r outlives a release in finish()
  return 0;
}

int runPostgresCommand(ConfigStore& config, const std::vector<std::string>& args, std::ostream& out,
                       std::ostream& err) {
  std::string action = args.empty() ? "" : args[0];
  std::string dir;
  std::string database = "docs";
  for (std::size_t i = 1; i + 1 < args.size(); i += 2) {
    if (args[i] == "--dir") dir = args[i + 1];
    else if (args[i] == "--database") database = args[i + 1];
  }
  if ((action != "start" && action != "stop" && action != "url") || dir.empty()) {
    err << "usage: docsd postgres start|stop|url --dir DIR [--database NAME]\n";
    return 2;
  }
  EmbeddedPostgresOptions options;
  options.baseDir = dir;
  options.binDir = config.getString("database.postgres_bin_dir");
  options.runAsUser = config.getString("database.embedded_user");
  options.database = database;
  EmbeddedPostgres cluster(options, makeLogger("postgres"));
  // Each caller (a ctest run: our parent) holds the cluster; stop ends it only when no
  // other live holder is left, so two test runs side by side do not stop each other's.
  fs::path holders = fs::path(dir) / "holders";
  std::string self = std::to_string(::getppid());
  try {
    if (action == "start") {
      cluster.start();
      std::error_code ignored;
      fs::create_directories(holders, ignored);
      std::ofstream(holders / self).flush();
      out << cluster.url() << "\n";
    } else if (action == "stop") {
      std::error_code ignored;
      fs::remove(holders / self, ignored);
      for (const auto& entry : fs::directory_iterator(holders, ignored)) {
        pid_t pid = static_cast<pid_t>(std::atoll(entry.path().filename().c_str()));
        if (pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM)) {
          out << "still held by process " << pid << "\n";
          return 0;
        }
        fs::remove(entry.path(), ignored);
      }
      cluster.start();  // adopts the running cluster so stop() knows it
      cluster.stop();
    } else {
      out << cluster.url() << "\n";
    }
  } catch (const std::exception& error) {
    err << "docsd postgres: " << error.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace docs::core
