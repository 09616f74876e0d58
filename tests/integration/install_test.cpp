// `cmake --install` as an operator runs it: the installed docsd, started with no path
// settings, loads the installed plugins and serves the installed web app (FHS layout,
// packaging/CMakeLists.txt). Also what a Type=notify systemd unit hears from docsd.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

std::string fileText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The product's plugins as the build made them (build/plugins/*.so).
std::vector<std::string> builtPlugins() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(docs::test::buildDir() + "/plugins"))
    if (entry.path().extension() == ".so") names.push_back(entry.path().stem().string());
  return names;
}

}  // namespace

TEST(Install, TheInstalledDocsdFindsItsPluginsAndWebAppWithNoPathSettings) {
  docs::test::TempDir scratch;
  fs::path prefix = fs::path(scratch.path()) / "usr";
  auto [code, output] =
      docs::test::runCommand({DOCS_TEST_CMAKE, "--install", docs::test::buildDir(), "--prefix", prefix.string()});
  ASSERT_EQ(code, 0) << output;

  fs::path binary = prefix / "bin" / "docsd";
  fs::path pluginsDir = prefix / DOCS_TEST_INSTALL_PLUGINDIR;
  fs::path webDir = prefix / DOCS_TEST_INSTALL_WEBDIR;
  ASSERT_TRUE(fs::exists(binary));
  for (const auto& name : builtPlugins()) EXPECT_TRUE(fs::exists(pluginsDir / (name + ".so"))) << name;
  // The service files, all under the prefix (nothing written outside it).
  EXPECT_TRUE(fs::exists(prefix / "lib/systemd/system/docsd.service"));
  EXPECT_TRUE(fs::exists(prefix / "lib/sysusers.d/docsd.conf"));
  EXPECT_TRUE(fs::exists(prefix / "etc/docsd/docsd.env"));

  fs::path builtIndex = fs::path(docs::test::sourceDir()) / "web" / "dist" / "index.html";
  if (fs::exists(builtIndex)) {
    EXPECT_EQ(fileText(webDir / "index.html"), fileText(builtIndex)) << "the web app is installed as built";
  } else {
    // web/dist is not built here (scripts/build-web.sh): docsd must still look in its place.
    fs::create_directories(webDir);
    std::ofstream(webDir / "index.html") << "<!doctype html><title>docs</title>";
  }
  // A file only the installed copy has: served from there, not from the checkout.
  std::ofstream(webDir / "installed-marker.txt") << "from share/docsd/web";

  // `docsd plugins` of the installed binary, in a bare environment, names the FHS place.
  auto [listed, list] =
      docs::test::runCommand({"env", "-i", "PATH=/usr/bin:/bin", "HOME=" + scratch.path(), binary.string(), "plugins"});
  EXPECT_EQ(listed, 0) << list;
  EXPECT_NE(list.find("plugins in " + pluginsDir.string()), std::string::npos) << list;
  EXPECT_EQ(list.find("NOT LOADABLE"), std::string::npos) << list;

  docs::test::TestDatabase database;
  Docsd::Options options;
  options.databaseUrl = database.url();
  Docsd docsd(options);
  docsd.runInstalled(binary.string());
  ASSERT_TRUE(docsd.start()) << docsd.log();
  EXPECT_EQ(httpRequest(docsd.port(), "GET", "/readyz").status, 200);

  auto config = json::parse(httpRequest(docsd.port(), "GET", "/config.json").body, nullptr, false);
  ASSERT_TRUE(config.is_object());
  for (const auto& name : builtPlugins())
    EXPECT_EQ(config["features"][name], true) << name << " did not load\n" << docsd.log();

  auto marker = httpRequest(docsd.port(), "GET", "/installed-marker.txt");
  EXPECT_EQ(marker.status, 200);
  EXPECT_EQ(marker.body, "from share/docsd/web");
  auto index = httpRequest(docsd.port(), "GET", "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.body, fileText(webDir / "index.html"));
  // A deep link is the SPA's too.
  EXPECT_EQ(httpRequest(docsd.port(), "GET", "/projects").body, index.body);
  EXPECT_EQ(docsd.terminate(), 0);
}

namespace {

// A stand-in for systemd's notification socket that also learns each sender's pid.
class NotifySocket {
 public:
  explicit NotifySocket(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un local{};
    local.sun_family = AF_UNIX;
    std::strncpy(local.sun_path, path_.c_str(), sizeof local.sun_path - 1);
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) == 0;
    int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
  }
  ~NotifySocket() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  bool bound() const { return bound_; }
  const std::string& path() const { return path_; }
  // The next message and its sender, waiting up to `timeout`; "" when none came.
  std::pair<std::string, pid_t> next(std::chrono::milliseconds timeout) const {
    pollfd ready{fd_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(timeout.count())) != 1) return {"", 0};
    char buffer[4096];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))];
    iovec io{buffer, sizeof buffer};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(fd_, &message, 0);
    if (n <= 0) return {"", 0};
    pid_t sender = 0;
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
        ucred credentials{};
        std::memcpy(&credentials, CMSG_DATA(c), sizeof credentials);
        sender = credentials.pid;
      }
    }
    return {std::string(buffer, static_cast<std::size_t>(n)), sender};
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool bound_ = false;
};

}  // namespace

// With the embedded PostgreSQL, which speaks the same protocol (Debian builds it with
// systemd support): only docsd may report, and READY=1 comes once /readyz holds.
TEST(ServiceNotify, ReadyOnceReadyzHoldsAndOnlyDocsdReports) {
  docs::test::TempDir dir;
  NotifySocket socket(dir.path() + "/notify");
  ASSERT_TRUE(socket.bound());
  // Open to the cluster's user too (docsd as root runs it as postgres): were the socket
  // passed on, postgres could report through it.
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  fs::permissions(socket.path(), fs::perms::all);
  Docsd::Options options;
  options.env["NOTIFY_SOCKET"] = socket.path();
  Docsd docsd(options);  // no database URL: the embedded cluster
  ASSERT_TRUE(docsd.start(std::chrono::seconds(120))) << docsd.log();
  const pid_t docsdPid = docsd.pid();

  auto [ready, readySender] = socket.next(std::chrono::seconds(120));
  ASSERT_NE(ready.find("READY=1"), std::string::npos) << ready << "\n" << docsd.log();
  EXPECT_EQ(readySender, docsdPid) << ready;
  EXPECT_EQ(httpRequest(docsd.port(), "GET", "/readyz").status, 200);

  EXPECT_EQ(docsd.terminate(), 0);
  auto [stopping, stoppingSender] = socket.next(std::chrono::seconds(5));
  EXPECT_NE(stopping.find("STOPPING=1"), std::string::npos) << stopping;
  EXPECT_EQ(stoppingSender, docsdPid);
  // Nothing else: the cluster's postgres (stopped by now) never had the socket.
  auto [other, otherSender] = socket.next(std::chrono::milliseconds(0));
  EXPECT_EQ(other, "") << "from pid " << otherSender;
}
