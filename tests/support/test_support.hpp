#pragma once
// Helpers for tests that need a real PostgreSQL or a real docsd process.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docs::test {

// The shared test cluster started by the ctest fixture (DOCS_TEST_PG_DIR).
std::string clusterUrl(const std::string& database);

// A fresh database in the test cluster, dropped when this goes out of scope.
class TestDatabase {
 public:
  TestDatabase();
  ~TestDatabase();
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;
  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::string url_;
};

// Runs one statement on a database (fixtures only; plugins never do this) and returns the
// first column of the first row, "" when there is none; throws std::runtime_error when
// the statement fails.
std::string sqlValue(const std::string& databaseUrl, const std::string& statement);

// A temporary directory removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string buildDir();           // DOCS_BUILD_DIR
std::string sourceDir();          // DOCS_SOURCE_DIR
std::string pluginFixturesDir();  // DOCS_TEST_PLUGINS: build/test-plugins

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names; the last of repeated ones
  std::vector<std::string> setCookies;         // every Set-Cookie value, in order
  std::string body;
  std::string header(const std::string& lowerName) const;
};

// One request on a fresh connection (Connection: close); status 0 if it failed.
HttpResponse httpRequest(int port, const std::string& method, const std::string& target, const std::string& body = "",
                         const std::map<std::string, std::string>& headers = {},
                         std::chrono::milliseconds timeout = std::chrono::seconds(10));
// Sends raw bytes and returns everything read until EOF or timeout.
std::string rawExchange(int port, const std::string& bytes, std::chrono::milliseconds timeout);
// The status and headers (names lower-cased) of an answer's head: its status line and header
// lines, without the blank line that ends them.
HttpResponse parseAnswerHead(std::string_view head);
int connectTo(int port);  // blocking TCP connection to 127.0.0.1, -1 on failure

// A docsd child process.
class Docsd {
 public:
  struct Options {
    // Added to the inherited environment (DOCS_* variables are not inherited); the default
    // DOCS_PLUGINS_ENABLED is all,example: the opt-in example plugin loads too.
    std::map<std::string, std::string> env;
    std::vector<std::string> args = {"serve"};
    std::string dataDir;      // default: a fresh temp dir
    std::string databaseUrl;  // empty: embedded PostgreSQL
  };
  explicit Docsd(Options options);
  ~Docsd();
  // Before start(): runs this binary (an installed docsd) instead of build/bin/docsd, with
  // no DOCS_PLUGINS_DIR and no DOCS_SERVER_WEB_ROOT, so it finds both where it looks by
  // default (its FHS places).
  void runInstalled(std::string binary) { installedBinary_ = std::move(binary); }
  // Starts and waits for the port file; false (with the log available) if it exited.
  bool start(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  void kill9();
  // SIGTERM and wait; returns the exit code (-1 if killed by a signal).
  int terminate(std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Waits for a process that should exit by itself (e.g. refused start).
  int waitExit(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  std::string log() const;
  const std::string& dataDir() const { return dataDir_; }
  int threadCount() const;

 private:
  Options options_;
  std::string installedBinary_;  // empty: build/bin/docsd with the build tree's paths
  std::optional<TempDir> ownDataDir_;
  std::string dataDir_;
  std::string logPath_;
  std::string portFile_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// A user signed in through the real email one-time-code flow.
struct SignedIn {
  std::string token;   // the JWT (send as "Authorization: Bearer <token>")
  std::string cookie;  // "name=value" of the session cookie (send as "Cookie: <cookie>")
  std::string userId;
  std::string email;
  std::map<std::string, std::string> bearer() const { return {{"Authorization", "Bearer " + token}}; }
};
// The newest one-time code the auth plugin wrote to dataDir/outbox for this email, or "".
std::string latestOutboxCode(const std::string& dataDir, const std::string& email);
// Requests a code, reads it from the docsd's outbox and signs in; throws std::runtime_error on failure.
SignedIn signInByEmail(const Docsd& docsd, const std::string& email);
// The newest code in dataDir/outbox for this email whose text says "<phrase> NNNNNN", or "".
std::string latestOutboxCode(const std::string& dataDir, const std::string& email, const std::string& phrase);
// Deletes the account the way a person does: asks for a deletion code, reads it from the
// outbox and confirms with it. Answers the final POST /api/auth/delete-user.
HttpResponse deleteAccount(const Docsd& docsd, const SignedIn& who);

// Runs a command, returns exit code and combined output.
std::pair<int, std::string> runCommand(const std::vector<std::string>& argv,
                                       const std::map<std::string, std::string>& env = {});

// A numeric field of /proc/PID/status ("Threads", "VmRSS" in KiB), or -1.
long procStatusField(pid_t pid, const std::string& field);

// Raises RLIMIT_NOFILE to at least `wanted` (or the hard limit).
void raiseOpenFileLimit(int wanted);

// Standard base64 with padding (JSON bodies carry Yjs updates so).
std::string base64(const std::vector<std::uint8_t>& bytes);

}  // namespace docs::test
