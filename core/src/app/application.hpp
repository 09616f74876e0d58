#pragma once
// The docsd process: resolves configuration, loads plugins, prepares the database,
// serves, and shuts down in reverse order.

#include <atomic>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "config/config_store.hpp"

namespace docs::core {

struct Paths {
  std::string dataDir;
  std::string pluginsDir;
  std::string webRoot;
};

// Resolves the defaults that depend on the machine (user, binary location).
Paths resolvePaths(const ConfigStore& config);

class Application {
 public:
  explicit Application(ConfigStore& config);
  ~Application();

  // Serves until SIGTERM/SIGINT; returns the process exit code.
  int serve();
  // Applies migrations and exits.
  int migrate();
  // Prints what would load and why not; non-zero when the start would fail.
  int listPlugins(std::ostream& out);
  // Declares plugin configuration keys (for --help); ignores broken plugins.
  void declarePluginKeys();

 public:
  struct Running;  // the live components; defined in application.cpp

 private:
  ConfigStore& config_;
  std::unique_ptr<Running> running_;
};

// `docsd postgres start|stop|url --dir DIR`: a cluster for tests and development.
int runPostgresCommand(ConfigStore& config, const std::vector<std::string>& args, std::ostream& out,
                       std::ostream& err);

}  // namespace docs::core
