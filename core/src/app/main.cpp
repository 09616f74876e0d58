// docsd: the documentation platform's server and its operator commands.

#include <Poco/Util/ServerApplication.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/application.hpp"
#include "app/plugin_host.hpp"
#include "config/config_store.hpp"
#include "docs/abi.hpp"
#include "log/logging.hpp"

#ifdef DOCS_HAVE_YDOC
#include "docs/ydoc/cli.hpp"
#endif

namespace {

// A command line that makes no sense: docsd says why, prints the usage and exits 64.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

constexpr const char* kUsage = R"(usage: docsd [OPTIONS] [COMMAND] [ARGS]

commands:
  serve                 run the server (default)
  migrate               apply database migrations and exit
  plugins               list plugins: what would load, versions, dependencies, and why not
  postgres start|stop|url --dir DIR
                        manage a private PostgreSQL cluster (tests, development)
  ydoc json|markdown|html|text|merge|state-vector|diff|from-json FILE...
                        read, merge and build Yjs page documents (docsd ydoc --help)
  config                every setting's effective value and where it came from (secrets masked)
  help                  this text, the plugins' commands and every configuration key
  <plugin command> ...  a command of a plugin that would load (docsd help lists them:
                        e.g. generate, from the generation plugin)

options (before the command: docsd --config FILE generate ...; --opt=value works too):
  --config FILE         JSON configuration file (also DOCS_CONFIG)
  --port N              same as DOCS_PORT
  --data-dir DIR        same as DOCS_DATA_DIR
  --set KEY=VALUE       any configuration key, highest precedence
  --version             print the version and plugin ABI

Configuration: declared defaults < config file < environment < command-line options.
A key a.b_c is set in the environment by DOCS_A_B_C, except the fixed names shown; a
secret may be read from a file named by DOCS_A_B_C_FILE (DATABASE_URL_FILE too).

exit status: 0 done, 64 usage (an unknown command or option), 69 a command whose plugin
is not loaded, 78 configuration (a file that cannot be read, a value of the wrong type).
)";

void printHelp(docs::core::ConfigStore& config, docs::core::Application& app) {
  auto commands = app.pluginCommands();
  app.declarePluginKeys();
  std::cout << kUsage << "\nplugin commands (of the plugins that would load):\n";
  if (commands.empty()) std::cout << "  (none)\n";
  for (const auto& command : commands) {
    std::cout << "  " << command.name << (command.usage.empty() ? "" : " ") << command.usage << "  (plugin "
              << command.plugin << ")\n";
    if (!command.summary.empty()) std::cout << "      " << command.summary << "\n";
    if (!command.keys.empty()) {
      std::cout << "      reads";
      for (std::size_t i = 0; i < command.keys.size(); ++i) std::cout << (i ? ", " : " ") << command.keys[i];
      std::cout << "\n";
    }
  }
  std::cout << "\nconfiguration keys:\n";
  for (const auto& key : config.declaredKeys()) {
    std::cout << "  " << key.key << "  (env " << key.envName << ", default '" << key.defaultValue << "'";
    if (key.owner != "core") std::cout << ", plugin " << key.owner;
    std::cout << ")\n      " << key.description << "\n";
  }
}

// `docsd config`: each declared key's effective value, its source and owner.
int printConfig(docs::core::ConfigStore& config, docs::core::Application& app) {
  app.declarePluginKeys();
  for (const auto& key : config.declaredKeys()) {
    std::string value = docs::core::ConfigStore::masked(key.key, config.getString(key.key));
    std::cout << key.key << " = " << value << "  (" << config.sourceOf(key.key);
    if (key.owner != "core") std::cout << ", plugin " << key.owner;
    std::cout << ")\n";
  }
  for (const auto& unknown : config.unknownSettings()) std::cout << "# unknown setting (typo?): " << unknown << "\n";
  return 0;
}

class DocsdApplication final : public Poco::Util::ServerApplication {
 public:
  explicit DocsdApplication(std::vector<std::string> args) : args_(std::move(args)) {}

 protected:
  int main(const std::vector<std::string>&) override {
    // POCO's run() would log any exception and exit 70: usage and configuration errors
    // get their own status and a plain message.
    try {
      return runCommand();
    } catch (const UsageError& error) {
      std::cerr << "docsd: " << error.what() << "\n\n" << kUsage;
      return docs::core::kExitUsage;
    } catch (const docs::core::ConfigError& error) {
      std::cerr << "docsd: configuration: " << error.what() << "\n";
      return docs::core::kExitConfig;
    }
  }

 private:
  int runCommand() {
    using namespace docs::core;
    ConfigStore config(processEnvironment());
    declareCoreKeys(config);
    std::string command = "serve";
    std::vector<std::string> rest;
    std::string configFile;
    bool commandGiven = false;  // the first word that is not an option, after any global options
    if (const char* fromEnv = std::getenv("DOCS_CONFIG")) configFile = fromEnv;
    std::vector<std::pair<std::string, std::string>> sets;  // --set KEY=VALUE, applied once keys are declared
    for (std::size_t i = 0; i < args_.size(); ++i) {
      std::string arg = args_[i];
      // Everything after ydoc, postgres or a plugin's command belongs to it.
      if (commandGiven && (command == "ydoc" || command == "postgres" || !docs::core::isCoreCommand(command))) {
        rest.push_back(arg);
        continue;
      }
      // --opt=value is --opt value.
      std::optional<std::string> inlineValue;
      if (arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos) {
        inlineValue = arg.substr(arg.find('=') + 1);
        arg = arg.substr(0, arg.find('='));
      }
      auto value = [&](const char* flag) -> std::string {
        if (inlineValue) return *inlineValue;
        if (i + 1 >= args_.size()) throw UsageError(std::string(flag) + " needs a value");
        return args_[++i];
      };
      if (arg == "--help" || arg == "-h" || arg == "--version") {
        command = arg == "--version" ? "version" : "help";
        commandGiven = true;
      } else if (arg == "--config") configFile = value("--config");
      else if (arg == "--port") config.set("server.port", value("--port"));
      else if (arg == "--data-dir") config.set("data_dir", value("--data-dir"));
      else if (arg == "--set") {
        std::string setting = value("--set");
        auto equals = setting.find('=');
        if (equals == std::string::npos || equals == 0)
          throw UsageError("--set needs KEY=VALUE, got '" + setting + "'");
        sets.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
      } else if (!commandGiven && !arg.empty() && arg[0] != '-') {
        command = arg;
        commandGiven = true;
      } else throw UsageError("unknown option '" + args_[i] + "'");
    }
    for (const auto& [key, value] : sets) config.set(key, value);
    if (!configFile.empty()) config.loadFile(configFile);
    initLogging(config.getString("log.format") == "text" ? LogFormat::Text : LogFormat::Json,
                parseLogLevel(config.getString("log.level")));
    docs::core::Application app(config);
    if (command == "help") {
      printHelp(config, app);
      return 0;
    }
    if (command == "version") {
      std::cout << "docsd " << DOCS_VERSION << " (" << DOCS_BUILD_COMMIT << ", plugin ABI " << docs::kPluginAbi
                << ")\n";
      return 0;
    }
    if (command == "config") return printConfig(config, app);
    // What the server writes (uploads, clones, sign-in mail, keys) is its own: 0600 / 0700.
    if (command == "serve" || command == "migrate") ::umask(077);
    // A malformed setting the server needs first fails before anything starts.
    if (command == "serve") (void)config.getInt("server.port");
    if (command == "serve") return app.serve();
    if (command == "migrate") return app.migrate();
    if (command == "plugins") return app.listPlugins(std::cout);
    if (command == "postgres") return runPostgresCommand(config, rest, std::cout, std::cerr);
#ifdef DOCS_HAVE_YDOC
    if (command == "ydoc") return docs::ydoc::runCli(rest, std::cin, std::cout, std::cerr);
#endif
    if (isCoreCommand(command)) {  // a core command this build lacks (ydoc)
      std::cerr << "docsd: this docsd was built without '" << command << "'\n";
      return kExitUsage;
    }
    // A plugin's command: the plugins that would load are configured, and the one that
    // declares it runs it.
    if (auto status = app.runPluginCommand(command, rest, std::cout, std::cerr)) return *status;
    std::cerr << "\n" << kUsage << "\n`docsd help` lists the plugins' commands too.\n";
    return kExitUsage;
  }

  std::vector<std::string> args_;
};

}  // namespace

int main(int argc, char** argv) {
  // Block termination signals before any thread exists, so every thread inherits the mask
  // and the main thread alone receives them (with sigwait).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGQUIT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // Every WebSocket is a descriptor: take the whole hard limit.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }

  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    DocsdApplication app(args);
    // POCO sees only the program name: our own parser handles every option.
    char* pocoArgv[] = {argv[0], nullptr};
    return app.run(1, pocoArgv);
  } catch (const UsageError& error) {
    std::cerr << "docsd: " << error.what() << "\n\n" << kUsage;
    return docs::core::kExitUsage;
  } catch (const docs::core::ConfigError& error) {
    std::cerr << "docsd: configuration: " << error.what() << "\n";
    return docs::core::kExitConfig;
  } catch (const std::exception& error) {
    std::cerr << "docsd: " << error.what() << "\n";
    return 2;
  }
}
