// docsd: the documentation platform's server and its operator commands.

#include <Poco/Util/ServerApplication.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <iostream>
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

constexpr const char* kUsage = R"(usage: docsd [OPTIONS] [COMMAND] [ARGS]

commands:
  serve                 run the server (default)
  migrate               apply database migrations and exit
  plugins               list plugins: what would load, versions, dependencies, and why not
  postgres start|stop|url --dir DIR
                        manage a private PostgreSQL cluster (tests, development)
  ydoc json|markdown|html|text|merge|state-vector|diff|from-json FILE...
                        read, merge and build Yjs page documents (docsd ydoc --help)
  help                  this text, the plugins' commands and every configuration key
  <plugin command> ...  a command of a plugin that would load (docsd help lists them:
                        e.g. generate, from the generation plugin)

options (before the command: docsd --config FILE generate ...):
  --config FILE         JSON configuration file (also DOCS_CONFIG)
  --port N              same as DOCS_PORT
  --data-dir DIR        same as DOCS_DATA_DIR
  --version             print the version and plugin ABI

Configuration: declared defaults < config file < environment < command-line options.
A key a.b_c is set in the environment by DOCS_A_B_C, except the fixed names shown.
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

class DocsdApplication final : public Poco::Util::ServerApplication {
 public:
  explicit DocsdApplication(std::vector<std::string> args) : args_(std::move(args)) {}

 protected:
  int main(const std::vector<std::string>&) override {
    using namespace docs::core;
    ConfigStore config(processEnvironment());
    declareCoreKeys(config);
    std::string command = "serve";
    std::vector<std::string> rest;
    std::string configFile;
    bool commandGiven = false;  // the first word that is not an option, after any global options
    if (const char* fromEnv = std::getenv("DOCS_CONFIG")) configFile = fromEnv;
    for (std::size_t i = 0; i < args_.size(); ++i) {
      const std::string& arg = args_[i];
      // Everything after ydoc or a plugin's command belongs to it.
      if (commandGiven && (command == "ydoc" || !docs::core::isCoreCommand(command))) {
        rest.push_back(arg);
        continue;
      }
      auto value = [&](const char* flag) -> std::string {
        if (i + 1 >= args_.size()) throw std::invalid_argument(std::string(flag) + " needs a value");
        return args_[++i];
      };
      if (arg == "--help" || arg == "-h" || arg == "--version") {
        command = arg == "--version" ? "version" : "help";
        commandGiven = true;
      }
      else if (arg == "--config") configFile = value("--config");
      else if (arg == "--port") config.set("server.port", value("--port"));
      else if (arg == "--data-dir") config.set("data_dir", value("--data-dir"));
      else if (!commandGiven && !arg.empty() && arg[0] != '-') {
        command = arg;
        commandGiven = true;
      }
      else rest.push_back(arg);
    }
    if (!configFile.empty()) config.loadFile(configFile);
    initLogging(config.getString("log.format") == "text" ? LogFormat::Text : LogFormat::Json,
                parseLogLevel(config.getString("log.level")));
    docs::core::Application app(config);
    if (command == "help") {
      printHelp(config, app);
      return 0;
    }
    if (command == "version") {
      std::cout << "docsd 0.1.0 (plugin ABI " << docs::kPluginAbi << ")\n";
      return 0;
    }
    // What the server writes (uploads, clones, sign-in mail, keys) is its own: 0600 / 0700.
    if (command == "serve" || command == "migrate") ::umask(077);
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

 private:
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
  } catch (const std::exception& error) {
    std::cerr << "docsd: " << error.what() << "\n";
    return 2;
  }
}
