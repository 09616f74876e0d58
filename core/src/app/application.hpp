#pragma once
// The docsd process: resolves configuration, loads plugins, prepares the database,
// serves, and shuts down in reverse order.

#include <atomic>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config_store.hpp"

namespace docs::core {

struct Paths {
  std::string dataDir;
  std::string pluginsDir;
  std::string webRoot;
};

// Exit codes of the command line (sysexits.h): a command docsd does not know, and one whose
// plugin is present but not loaded.
inline constexpr int kExitUsage = 64;
inline constexpr int kExitUnavailable = 69;
inline constexpr int kExitConfig = 78;

// A plugin's subcommand, as `docsd help` lists it.
struct PluginCommandInfo {
  std::string name;
  std::string usage;
  std::string summary;
  std::vector<std::string> keys;
  std::string plugin;
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
  // The subcommands of the plugins that would load (configure()d: declarations only).
  std::vector<PluginCommandInfo> pluginCommands();
  // Runs a plugin's subcommand with the words after its name, with no server and no
  // database; returns its exit code. A name no loaded plugin declares: says on err which
  // plugin provides it and why that one is not loaded (kExitUnavailable), or that no
  // plugin does (nullopt).
  std::optional<int> runPluginCommand(const std::string& name, const std::vector<std::string>& args, std::ostream& out,
                                      std::ostream& err);

 public:
  struct Running;  // the live components; defined in application.cpp

 private:
  ConfigStore& config_;
  std::unique_ptr<Running> running_;
};

// `docsd postgres start|stop|url --dir DIR`: a cluster for tests and development.
int runPostgresCommand(ConfigStore& config, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace docs::core
