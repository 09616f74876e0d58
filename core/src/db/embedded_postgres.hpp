#pragma once
// A private PostgreSQL cluster under the data directory, reachable only through a Unix
// socket there. initdb on first use; adopts a postmaster left running by a killed docsd;
// replaces a stale postmaster.pid; runs the cluster as an unprivileged user when root.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "util/process.hpp"

namespace docs {
class Logger;
}

namespace docs::core {

struct EmbeddedPostgresOptions {
  std::string baseDir;                 // cluster in baseDir/data, socket in baseDir/run, log in baseDir/log
  std::string binDir;                  // empty: discover
  std::string runAsUser = "postgres";  // used only when running as root
  std::string database = "docs";
};

class EmbeddedPostgres {
 public:
  EmbeddedPostgres(EmbeddedPostgresOptions options, std::shared_ptr<Logger> logger);
  ~EmbeddedPostgres();

  // Initialises if needed, starts or adopts the postmaster, ensures the database exists.
  // Throws std::runtime_error with an actionable message.
  void start();
  // Fast shutdown of the postmaster (if this object started or adopted it).
  void stop();
  // libpq URL for a database of this cluster.
  std::string url(const std::string& database) const;
  std::string url() const { return url(options_.database); }
  bool adopted() const { return adopted_; }

  // Where the server binaries are, or a runtime_error naming the package to install.
  static std::string discoverBinDir(const std::string& configured);

 private:
  void ensureDirectories();
  void initCluster();
  void writeSettings();
  bool isRunning();
  // Waits up to `patience` for the server to accept connections.
  bool acceptsConnections(std::chrono::milliseconds patience);
  void startPostmaster();
  void removeStalePidFile();
  void ensureDatabase(const std::string& name);
  std::string program(const std::string& name) const { return binDir_ + "/" + name; }

  EmbeddedPostgresOptions options_;
  std::shared_ptr<Logger> logger_;
  std::string binDir_;
  std::string dataDir_, socketDir_, logDir_;
  std::optional<UserIds> runAs_;
  bool running_ = false;
  bool adopted_ = false;
};

}  // namespace docs::core
