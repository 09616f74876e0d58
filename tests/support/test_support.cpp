#include "test_support.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <docs/codec/codec.hpp>

extern char** environ;

namespace fs = std::filesystem;

namespace docs::test {

namespace {

std::string env(const char* name, const char* fallback = "") {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

std::string randomSuffix() {
  static std::atomic<int> counter{0};
  std::mt19937 random{std::random_device{}()};
  return std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + std::to_string(random() % 1000000);
}

void adminExec(const std::string& sql) {
  PGconn* connection = PQconnectdb(clusterUrl("docs").c_str());
  if (PQstatus(connection) != CONNECTION_OK) {
    std::string message = PQerrorMessage(connection);
    PQfinish(connection);
    throw std::runtime_error("test cluster unreachable (is the pg fixture running?): " + message);
  }
  PGresult* result = PQexec(connection, sql.c_str());
  bool ok = PQresultStatus(result) == PGRES_COMMAND_OK || PQresultStatus(result) == PGRES_TUPLES_OK;
  std::string message = ok ? "" : PQresultErrorMessage(result);
  PQclear(result);
  PQfinish(connection);
  if (!ok) throw std::runtime_error(sql + ": " + message);
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::string buildDir() { return env("DOCS_BUILD_DIR", DOCS_TEST_DEFAULT_BUILD_DIR); }
std::string sourceDir() { return env("DOCS_SOURCE_DIR", DOCS_TEST_DEFAULT_SOURCE_DIR); }
std::string pluginFixturesDir() { return env("DOCS_TEST_PLUGINS", DOCS_TEST_DEFAULT_PLUGINS); }

std::string clusterUrl(const std::string& database) {
  std::string dir = env("DOCS_TEST_PG_DIR", DOCS_TEST_DEFAULT_PG_DIR);
  std::string encoded;
  for (char c : dir + "/run") {
    if (c == '/') encoded += "%2F";
    else encoded += c;
  }
  return "postgresql:///" + database + "?host=" + encoded + "&user=docsd";
}

std::string sqlValue(const std::string& databaseUrl, const std::string& statement) {
  PGconn* connection = PQconnectdb(databaseUrl.c_str());
  if (PQstatus(connection) != CONNECTION_OK) {
    std::string message = PQerrorMessage(connection);
    PQfinish(connection);
    throw std::runtime_error("cannot connect to " + databaseUrl + ": " + message);
  }
  PGresult* result = PQexec(connection, statement.c_str());
  auto status = PQresultStatus(result);
  std::string value, message;
  if (status == PGRES_TUPLES_OK && PQntuples(result) > 0 && PQnfields(result) > 0) value = PQgetvalue(result, 0, 0);
  else if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) message = PQresultErrorMessage(result);
  PQclear(result);
  PQfinish(connection);
  if (!message.empty()) throw std::runtime_error(statement + ": " + message);
  return value;
}

TestDatabase::TestDatabase() : name_("t_" + randomSuffix()) {
  adminExec("CREATE DATABASE " + name_);
  url_ = clusterUrl(name_);
}

TestDatabase::~TestDatabase() {
  try {
    adminExec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  } catch (...) {
  }
}

TempDir::TempDir() {
  std::string base = fs::temp_directory_path() / ("docs-test-" + randomSuffix());
  fs::create_directories(base);
  ::chmod(base.c_str(), 0755);
  path_ = base;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string HttpResponse::header(const std::string& lowerName) const {
  auto it = headers.find(lowerName);
  return it == headers.end() ? "" : it->second;
}

int connectTo(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

std::string rawExchange(int port, const std::string& bytes, std::chrono::milliseconds timeout) {
  int fd = connectTo(port);
  if (fd < 0) return {};
  (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    out.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

HttpResponse parseAnswerHead(std::string_view head) {
  HttpResponse response;
  if (head.size() > 9) response.status = std::atoi(std::string(head.substr(9, 3)).c_str());
  std::istringstream lines{std::string(head)};
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    if (name == "set-cookie") response.setCookies.push_back(value);
    response.headers[name] = value;
  }
  return response;
}

HttpResponse httpRequest(int port, const std::string& method, const std::string& target, const std::string& body,
                         const std::map<std::string, std::string>& headers, std::chrono::milliseconds timeout) {
  std::string request =
      method + " " + target + " HTTP/1.1\r\nHost: localhost:" + std::to_string(port) + "\r\nConnection: close\r\n";
  bool hasLength = false;
  for (const auto& [name, value] : headers) {
    request += name + ": " + value + "\r\n";
    if (name == "Content-Length" || name == "Transfer-Encoding") hasLength = true;
  }
  if (!hasLength && (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH"))
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  request += "\r\n" + body;
  std::string raw = rawExchange(port, request, timeout);
  auto headerEnd = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.", 0) != 0 || headerEnd == std::string::npos) return HttpResponse{};
  HttpResponse response = parseAnswerHead(std::string_view(raw).substr(0, headerEnd));
  response.body = raw.substr(headerEnd + 4);
  return response;
}

Docsd::Docsd(Options options) : options_(std::move(options)) {
  if (options_.dataDir.empty()) {
    ownDataDir_.emplace();
    dataDir_ = ownDataDir_->path();
  } else {
    dataDir_ = options_.dataDir;
  }
  static std::atomic<int> counter{0};
  std::string tag = std::to_string(::getpid()) + "-" + std::to_string(counter++);
  logPath_ = fs::temp_directory_path() / ("docsd-test-" + tag + ".log");
  portFile_ = fs::temp_directory_path() / ("docsd-test-" + tag + ".port");
}

Docsd::~Docsd() {
  if (pid_ > 0) terminate(std::chrono::seconds(20));
  std::error_code ec;
  fs::remove(portFile_, ec);
  if (!std::getenv("DOCS_KEEP_TEST_LOGS")) fs::remove(logPath_, ec);
}

bool Docsd::start(std::chrono::milliseconds timeout) {
  std::error_code ec;
  fs::remove(portFile_, ec);
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (auto it = vars.begin(); it != vars.end();)
    it = it->first.rfind("DOCS_", 0) == 0 && it->first.rfind("DOCS_TEST", 0) != 0 && it->first != "DOCS_BUILD_DIR" &&
                 it->first != "DOCS_SOURCE_DIR"
             ? vars.erase(it)
             : std::next(it);
  vars.erase("DATABASE_URL");
  vars["DOCS_PORT"] = "0";
  vars["DOCS_SERVER_HOST"] = "127.0.0.1";
  vars["DOCS_SERVER_PORT_FILE"] = portFile_;
  vars["DOCS_DATA_DIR"] = dataDir_;
  if (installedBinary_.empty()) vars["DOCS_PLUGINS_DIR"] = buildDir() + "/plugins";
  // The example plugin is opt-in (production leaves it out); the tests use its routes.
  vars["DOCS_PLUGINS_ENABLED"] = "all,example";
  vars["DOCS_LOG_FORMAT"] = "text";
  if (installedBinary_.empty()) vars["DOCS_SERVER_WEB_ROOT"] = dataDir_ + "/no-web";
  if (!options_.databaseUrl.empty()) vars["DATABASE_URL"] = options_.databaseUrl;
  for (const auto& [k, v] : options_.env) vars[k] = v;
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : vars) envStrings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = {installedBinary_.empty() ? buildDir() + "/bin/docsd" : installedBinary_};
  args.insert(args.end(), options_.args.begin(), options_.args.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ == 0) {
    int log = ::open(logPath_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(log, 1);
    ::dup2(log, 2);
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string text = readAll(portFile_);
    if (!text.empty() && text.back() == '\n') {
      port_ = std::atoi(text.c_str());
      return port_ > 0;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void Docsd::kill9() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

int Docsd::waitExit(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill9();
  return -2;
}

int Docsd::terminate(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  return waitExit(timeout);
}

std::string Docsd::log() const { return readAll(logPath_); }

int Docsd::threadCount() const { return static_cast<int>(procStatusField(pid_, "Threads")); }

long procStatusField(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  return -1;
}

std::pair<int, std::string> runCommand(const std::vector<std::string>& argv,
                                       const std::map<std::string, std::string>& extraEnv) {
  std::string command;
  for (const auto& [k, v] : extraEnv) command += k + "='" + v + "' ";
  for (const auto& a : argv) command += "'" + a + "' ";
  command += "2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string output;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

void raiseOpenFileLimit(int wanted) {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  rlim_t target = std::min<rlim_t>(static_cast<rlim_t>(wanted), limit.rlim_max);
  if (limit.rlim_cur < target) {
    limit.rlim_cur = target;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  return codec::base64Encode(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace docs::test
