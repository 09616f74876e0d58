#include "util/service_notify.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace docs::core {

ServiceNotifier ServiceNotifier::fromEnvironment() {
  const char* value = std::getenv("NOTIFY_SOCKET");
  ServiceNotifier notifier(value ? value : "");
  ::unsetenv("NOTIFY_SOCKET");
  return notifier;
}

ServiceNotifier::ServiceNotifier(std::string socketAddress) : address_(std::move(socketAddress)) {}

bool ServiceNotifier::notify(const std::string& message) const {
  if (address_.empty()) return false;
  // Only a file path or an abstract name: systemd also passes vsock addresses to VMs,
  // which a server on a host never gets.
  if (address_[0] != '/' && address_[0] != '@') return false;
  sockaddr_un target{};
  target.sun_family = AF_UNIX;
  if (address_.size() > sizeof target.sun_path) return false;
  std::memcpy(target.sun_path, address_.data(), address_.size());
  if (address_[0] == '@') target.sun_path[0] = '\0';  // the abstract namespace
  socklen_t length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address_.size());
  // A path must end with its NUL when it fits; an abstract name is exactly its bytes.
  if (address_[0] == '/' && address_.size() < sizeof target.sun_path) ++length;

  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ssize_t sent =
      ::sendto(fd, message.data(), message.size(), MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&target), length);
  ::close(fd);
  return sent == static_cast<ssize_t>(message.size());
}

}  // namespace docs::core
