// The sd_notify(3) sender: what a Type=notify systemd unit receives from docsd.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "util/service_notify.hpp"

namespace fs = std::filesystem;
using docs::core::ServiceNotifier;

namespace {

// A datagram socket standing in for systemd's notification socket.
class Receiver {
 public:
  // A path socket, or an abstract one when the name starts with '@'.
  explicit Receiver(const std::string& address) : address_(address) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un local{};
    local.sun_family = AF_UNIX;
    std::memcpy(local.sun_path, address.data(), address.size());
    if (address[0] == '@') local.sun_path[0] = '\0';
    socklen_t length =
        static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address.size() + (address[0] == '@' ? 0 : 1));
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&local), length) == 0;
  }
  ~Receiver() {
    ::close(fd_);
    if (address_[0] == '/') ::unlink(address_.c_str());
  }
  bool bound() const { return bound_; }
  // The next datagram, or "" when none is waiting.
  std::string next() const {
    char buffer[4096];
    ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
    return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
  }

 private:
  std::string address_;
  int fd_ = -1;
  bool bound_ = false;
};

std::string scratchSocketPath() {
  return (fs::temp_directory_path() / ("docs-notify-" + std::to_string(::getpid()) + ".sock")).string();
}

}  // namespace

TEST(ServiceNotify, SendsTheMessageToAPathSocket) {
  std::string path = scratchSocketPath();
  Receiver receiver(path);
  ASSERT_TRUE(receiver.bound());
  ServiceNotifier notifier(path);
  EXPECT_TRUE(notifier.enabled());
  EXPECT_TRUE(notifier.notify("READY=1\nSTATUS=serving\n"));
  EXPECT_EQ(receiver.next(), "READY=1\nSTATUS=serving\n");
  EXPECT_EQ(receiver.next(), "");
}

TEST(ServiceNotify, SendsToAnAbstractSocketNamedWithAnAt) {
  std::string name = "@docs-notify-test-" + std::to_string(::getpid());
  Receiver receiver(name);
  ASSERT_TRUE(receiver.bound());
  EXPECT_TRUE(ServiceNotifier(name).notify("STOPPING=1\n"));
  EXPECT_EQ(receiver.next(), "STOPPING=1\n");
}

TEST(ServiceNotify, DoesNothingWithoutASocket) {
  ServiceNotifier none;
  EXPECT_FALSE(none.enabled());
  EXPECT_FALSE(none.notify("READY=1\n"));
  // A relative name is no address systemd gives: refused, not sent somewhere in the cwd.
  EXPECT_FALSE(ServiceNotifier("notify.sock").notify("READY=1\n"));
  // Nobody listening: the send fails and says so (docsd carries on).
  EXPECT_FALSE(ServiceNotifier(scratchSocketPath() + ".gone").notify("READY=1\n"));
}

TEST(ServiceNotify, TakesTheSocketFromTheEnvironmentAndHidesItFromChildren) {
  std::string path = scratchSocketPath();
  Receiver receiver(path);
  ASSERT_TRUE(receiver.bound());
  ::setenv("NOTIFY_SOCKET", path.c_str(), 1);
  ServiceNotifier notifier = ServiceNotifier::fromEnvironment();
  EXPECT_EQ(std::getenv("NOTIFY_SOCKET"), nullptr);  // the embedded PostgreSQL must not report for docsd
  EXPECT_TRUE(notifier.notify("READY=1\n"));
  EXPECT_EQ(receiver.next(), "READY=1\n");
  EXPECT_FALSE(ServiceNotifier::fromEnvironment().enabled());
}
