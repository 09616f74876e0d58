#include "db/embedded_postgres.hpp"

#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <docs/codec/codec.hpp>

#include "db/pg_pool.hpp"
#include "docs/logger.hpp"

namespace fs = std::filesystem;

namespace docs::core {

namespace {

constexpr const char* kSuperuser = "docsd";

std::string lastLines(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  while (lines-- > 0 && pos > 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(pos + 1);
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

EmbeddedPostgres::EmbeddedPostgres(EmbeddedPostgresOptions options, std::shared_ptr<Logger> logger)
    : options_(std::move(options)), logger_(std::move(logger)) {
  fs::path base = fs::absolute(options_.baseDir).lexically_normal();
  dataDir_ = (base / "data").string();
  socketDir_ = (base / "run").string();
  logDir_ = (base / "log").string();
}

EmbeddedPostgres::~EmbeddedPostgres() = default;

std::string EmbeddedPostgres::discoverBinDir(const std::string& configured) {
  auto complete = [](const fs::path& dir) {
    return fs::exists(dir / "initdb") && fs::exists(dir / "pg_ctl") && fs::exists(dir / "postgres");
  };
  if (!configured.empty()) {
    if (complete(configured)) return configured;
    throw std::runtime_error("database.postgres_bin_dir=" + configured + " does not hold initdb, pg_ctl and postgres");
  }
  std::vector<std::pair<int, fs::path>> candidates;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit) && complete(entry.path() / "bin"))
      candidates.emplace_back(std::stoi(name), entry.path() / "bin");
  }
  if (!candidates.empty()) {
    std::sort(candidates.begin(), candidates.end());
    return candidates.back().second.string();
  }
  if (auto initdb = findInPath("initdb")) {
    fs::path dir = fs::canonical(*initdb).parent_path();
    if (complete(dir)) return dir.string();
  }
  throw std::runtime_error(
      "PostgreSQL server programs (initdb, pg_ctl, postgres) were not found. Install the Debian package "
      "'postgresql' (apt-get install postgresql), set database.postgres_bin_dir, or set DATABASE_URL to use an "
      "existing server.");
}

void EmbeddedPostgres::start() {
  binDir_ = discoverBinDir(options_.binDir);
  if (geteuid() == 0) {
    runAs_ = lookupUser(options_.runAsUser);
    if (!runAs_)
      throw std::runtime_error("docsd runs as root, and PostgreSQL refuses to: the system user '" + options_.runAsUser +
                               "' that should run the embedded cluster does not exist (set database.embedded_user, "
                               "or create the user)");
  }
  std::string socketFile = socketDir_ + "/.s.PGSQL.5432";
  if (socketFile.size() >= 100)
    throw std::runtime_error("data directory path is too long for a Unix socket (" + socketFile +
                             "); use a shorter DOCS_DATA_DIR");
  ensureDirectories();
  if (!fs::exists(fs::path(dataDir_) / "PG_VERSION")) initCluster();
  writeSettings();
  if (isRunning() && acceptsConnections(std::chrono::seconds(15))) {
    adopted_ = true;
    if (logger_) logger_->warn("adopting a PostgreSQL left running by a previous docsd", {{"data", dataDir_}});
  } else {
    if (isRunning()) {
      // A postmaster that never answers (dying, or wedged): stop it hard, then start fresh.
      if (logger_) logger_->warn("a previous PostgreSQL does not answer; stopping it", {{"data", dataDir_}});
      runProcess({program("pg_ctl"), "stop", "-D", dataDir_, "-m", "immediate", "-w", "-t", "30", "-s"}, runAs_);
    }
    startPostmaster();
  }
  running_ = true;
  ensureDatabase(options_.database);
}

void EmbeddedPostgres::ensureDirectories() {
  for (const auto& dir : {fs::path(options_.baseDir), fs::path(dataDir_), fs::path(socketDir_), fs::path(logDir_)}) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create " + dir.string() + ": " + ec.message());
  }
  ::chmod(dataDir_.c_str(), 0700);
  ::chmod(socketDir_.c_str(), 0700);
  if (runAs_) {
    for (const auto& dir : {fs::path(options_.baseDir), fs::path(socketDir_), fs::path(logDir_)})
      if (::chown(dir.c_str(), runAs_->uid, runAs_->gid) != 0)
        throw std::runtime_error("cannot hand " + dir.string() + " to user " + runAs_->name);
    // The cluster directory and everything in it must belong to the database user.
    for (auto it = fs::recursive_directory_iterator(dataDir_); it != fs::recursive_directory_iterator(); ++it)
      (void)!::lchown(it->path().c_str(), runAs_->uid, runAs_->gid);
    if (::chown(dataDir_.c_str(), runAs_->uid, runAs_->gid) != 0)
      throw std::runtime_error("cannot hand " + dataDir_ + " to user " + runAs_->name);
    if (!userCanAccess(*runAs_, dataDir_))
      throw std::runtime_error("the embedded PostgreSQL runs as user '" + runAs_->name + "', which cannot reach " +
                               dataDir_ +
                               " (a parent directory is closed to it). Choose a data directory it can "
                               "reach, e.g. DOCS_DATA_DIR=/var/lib/docsd, or set DATABASE_URL.");
  }
}

void EmbeddedPostgres::initCluster() {
  if (logger_) logger_->info("initialising embedded PostgreSQL cluster", {{"data", dataDir_}});
  auto result = runProcess({program("initdb"), "-D", dataDir_, "-U", kSuperuser, "--auth=trust", "-E", "UTF8",
                            "--locale=C", "--no-instructions"},
                           runAs_);
  if (result.exitCode != 0)
    throw std::runtime_error("initdb failed for " + dataDir_ + ": " + lastLines(result.output, 8));
  std::ofstream conf(fs::path(dataDir_) / "postgresql.conf", std::ios::app);
  conf << "\n# Added by docsd: settings that follow the data directory.\ninclude_if_exists = 'docsd.conf'\n";
}

void EmbeddedPostgres::writeSettings() {
  fs::path file = fs::path(dataDir_) / "docsd.conf";
  std::ofstream conf(file, std::ios::trunc);
  conf << "# Written by docsd at every start.\n"
       << "listen_addresses = ''\n"
       << "unix_socket_directories = '" << socketDir_ << "'\n"
       << "unix_socket_permissions = 0700\n"
       << "max_connections = 200\n"
       << "shared_buffers = 128MB\n"
       << "logging_collector = off\n";
  conf.close();
  if (runAs_) (void)!::chown(file.c_str(), runAs_->uid, runAs_->gid);
}

bool EmbeddedPostgres::acceptsConnections(std::chrono::milliseconds patience) {
  auto deadline = std::chrono::steady_clock::now() + patience;
  std::string conninfo = url("postgres");
  for (;;) {
    PGPing ping = PQping(conninfo.c_str());
    if (ping == PQPING_OK) return true;
    if (ping == PQPING_NO_ATTEMPT || std::chrono::steady_clock::now() >= deadline) return false;
    // Not yet up, or dying: if the postmaster is gone, stop waiting.
    if (ping == PQPING_NO_RESPONSE && !isRunning()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

bool EmbeddedPostgres::isRunning() {
  auto result = runProcess({program("pg_ctl"), "status", "-D", dataDir_}, runAs_);
  return result.exitCode == 0;
}

void EmbeddedPostgres::removeStalePidFile() {
  fs::path pidFile = fs::path(dataDir_) / "postmaster.pid";
  std::string text = readFile(pidFile);
  if (text.empty()) return;
  pid_t pid = static_cast<pid_t>(std::atol(text.c_str()));
  std::string comm = pid > 0 ? readFile("/proc/" + std::to_string(pid) + "/comm") : "";
  bool alive = pid > 0 && ::kill(pid, 0) == 0;
  if (!alive || comm.rfind("postgres", 0) != 0) {
    if (logger_) logger_->warn("removing a stale postmaster.pid", {{"pid", pid}});
    fs::remove(pidFile);
  }
}

void EmbeddedPostgres::startPostmaster() {
  std::string logFile = logDir_ + "/postgres.log";
  auto attempt = [&] {
    return runProcess({program("pg_ctl"), "start", "-D", dataDir_, "-l", logFile, "-w", "-t", "60", "-s"}, runAs_);
  };
  auto result = attempt();
  if (result.exitCode != 0) {
    // A postmaster.pid naming a dead or foreign process blocks the start: clear it once.
    removeStalePidFile();
    result = attempt();
  }
  if (result.exitCode != 0)
    throw std::runtime_error("embedded PostgreSQL did not start: " + lastLines(result.output, 5) +
                             " | server log: " + lastLines(readFile(logFile), 8));
  if (logger_) logger_->info("embedded PostgreSQL started", {{"socket", socketDir_}});
}

void EmbeddedPostgres::ensureDatabase(const std::string& name) {
  PgPoolOptions options;
  options.url = url("postgres");
  options.applicationName = "docsd-bootstrap";
  PGconn* connection = connectWith(options);
  try {
    auto existing = execOn(connection, "SELECT 1 FROM pg_database WHERE datname = $1", {name});
    if (existing.empty()) {
      // Identifiers cannot be parameters; the name is quoted with libpq's escaping.
      char* quoted = PQescapeIdentifier(connection, name.c_str(), name.size());
      std::string sql = std::string("CREATE DATABASE ") + quoted;
      PQfreemem(quoted);
      try {
        execOn(connection, sql, {});
      } catch (const DbError& error) {
        if (error.sqlState() != "42P04") throw;  // created concurrently: fine
      }
    }
  } catch (...) {
    PQfinish(connection);
    throw;
  }
  PQfinish(connection);
}

void EmbeddedPostgres::stop() {
  if (!running_) return;
  running_ = false;
  auto result = runProcess({program("pg_ctl"), "stop", "-D", dataDir_, "-m", "fast", "-w", "-t", "60", "-s"}, runAs_);
  if (result.exitCode != 0 && logger_)
    logger_->error("embedded PostgreSQL did not stop cleanly", {{"output", lastLines(result.output, 5)}});
  else if (logger_) logger_->info("embedded PostgreSQL stopped");
}

std::string EmbeddedPostgres::url(const std::string& database) const {
  return "postgresql:///" + codec::percentEncode(database) + "?host=" + codec::percentEncode(socketDir_) +
         "&user=" + kSuperuser;
}

}  // namespace docs::core
