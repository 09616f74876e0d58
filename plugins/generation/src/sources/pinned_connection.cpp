#include "sources/pinned_connection.hpp"

#include <git2.h>
#include <git2/sys/stream.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace docs_generation {

struct PinnedConnections::State {
  const CloneTarget* target = nullptr;
  std::function<bool()> stop;
};

namespace {

thread_local PinnedConnections::State* current = nullptr;

constexpr int kSliceMs = 250;                        // how often `stop` is asked while waiting
constexpr std::chrono::seconds kConnectTimeout{30};  // per address

struct PinnedStream {
  git_stream parent;  // first: libgit2 holds a pointer to it
  PinnedConnections::State* state = nullptr;
  int fd = -1;
};

PinnedStream* self(git_stream* stream) { return reinterpret_cast<PinnedStream*>(stream); }

void fail(const std::string& message) { git_error_set_str(GIT_ERROR_NET, message.c_str()); }

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "0443" and "443" are one port; anything else than digits is none.
long portNumber(const std::string& port) {
  if (port.empty() || port.size() > 5) return -1;
  for (unsigned char c : port)
    if (!std::isdigit(c)) return -1;
  return std::stol(port);
}

bool stopped(PinnedConnections::State* state) { return state->stop && state->stop(); }

// Waits for `events` on `fd` in slices, asking `stop` between them; false when stopped or
// past `deadline` (errno ETIMEDOUT or ECANCELED).
bool waitFor(int fd, short events, PinnedConnections::State* state,
             std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) {
  while (true) {
    pollfd watched{fd, events, 0};
    int ready = ::poll(&watched, 1, kSliceMs);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
    if (stopped(state)) {
      errno = ECANCELED;
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      errno = ETIMEDOUT;
      return false;
    }
  }
}

// A TCP connection to a numeric address (never a name: AI_NUMERICHOST).
int connectTo(const std::string& address, const std::string& port, PinnedConnections::State* state) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (getaddrinfo(address.c_str(), port.c_str(), &hints, &found) != 0 || !found) {
    errno = EINVAL;
    return -1;
  }
  int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  int result = fd < 0 ? -1 : ::connect(fd, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  if (fd < 0) return -1;
  if (result != 0 && errno != EINPROGRESS) {
    int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  if (result != 0) {
    if (!waitFor(fd, POLLOUT, state, std::chrono::steady_clock::now() + kConnectTimeout)) {
      int error = errno;
      ::close(fd);
      errno = error;
      return -1;
    }
    int error = 0;
    socklen_t length = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
      ::close(fd);
      errno = error ? error : EIO;
      return -1;
    }
  }
  return fd;
}

int streamConnect(git_stream* stream) {
  auto* pinned = self(stream);
  const CloneTarget& target = *pinned->state->target;
  std::string failures;
  for (const auto& address : target.addresses) {
    int fd = target.connect ? target.connect(address, target.port) : connectTo(address, target.port, pinned->state);
    if (fd >= 0) {
      pinned->fd = fd;
      return 0;
    }
    if (errno == ECANCELED) break;
    failures += (failures.empty() ? "" : ", ") + address + " (" + std::strerror(errno) + ")";
  }
  if (errno == ECANCELED) fail("stopped while connecting to " + target.host);
  else fail("could not connect to " + target.host + " at " + failures);
  return -1;
}

ssize_t streamRead(git_stream* stream, void* data, std::size_t size) {
  auto* pinned = self(stream);
  while (true) {
    if (!waitFor(pinned->fd, POLLIN, pinned->state)) {
      fail(errno == ECANCELED ? "stopped while waiting for the repository's host"
                              : std::string("read failed: ") + std::strerror(errno));
      return -1;
    }
    ssize_t got = ::recv(pinned->fd, data, size, 0);
    if (got >= 0) return got;
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    fail(std::string("read failed: ") + std::strerror(errno));
    return -1;
  }
}

ssize_t streamWrite(git_stream* stream, const char* data, std::size_t size, int) {
  auto* pinned = self(stream);
  std::size_t sent = 0;
  while (sent < size) {
    ssize_t wrote = ::send(pinned->fd, data + sent, size - sent, MSG_NOSIGNAL);
    if (wrote > 0) {
      sent += static_cast<std::size_t>(wrote);
      continue;
    }
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && waitFor(pinned->fd, POLLOUT, pinned->state)) continue;
    fail(errno == ECANCELED ? "stopped while sending to the repository's host"
                            : std::string("write failed: ") + std::strerror(errno));
    return -1;
  }
  return static_cast<ssize_t>(size);
}

int streamClose(git_stream* stream) {
  auto* pinned = self(stream);
  if (pinned->fd >= 0) ::close(pinned->fd);
  pinned->fd = -1;
  return 0;
}

void streamFree(git_stream* stream) {
  streamClose(stream);
  delete self(stream);
}

// libgit2 asks for a connection to host:port (the TLS stream asks for the socket under it).
int streamInit(git_stream** out, const char* host, const char* port) {
  PinnedConnections::State* state = current;
  std::string asked = std::string(host ? host : "") + ":" + (port ? port : "");
  if (!state || !state->target) {
    fail("refusing to connect to " + asked + ": docsd connects only to checked repository addresses");
    return -1;
  }
  const CloneTarget& target = *state->target;
  if (target.host.empty() || target.addresses.empty() || lower(host ? host : "") != target.host ||
      portNumber(port ? port : "") != portNumber(target.port)) {
    fail("refusing to connect to " + asked + ": not the repository's checked address " + target.host + ":" +
         target.port);
    return -1;
  }
  auto* stream = new PinnedStream{};
  stream->parent.version = GIT_STREAM_VERSION;
  stream->parent.encrypted = 0;
  stream->parent.proxy_support = 0;
  stream->parent.connect = streamConnect;
  stream->parent.read = streamRead;
  stream->parent.write = streamWrite;
  stream->parent.close = streamClose;
  stream->parent.free = streamFree;
  stream->state = state;
  *out = &stream->parent;
  return 0;
}

}  // namespace

void installPinnedConnections() {
  static std::once_flag once;
  std::call_once(once, [] {
    static git_stream_registration registration{GIT_STREAM_VERSION, streamInit, nullptr};
    if (git_stream_register(GIT_STREAM_STANDARD, &registration) != 0)
      throw std::runtime_error("libgit2 refused the pinned stream");
  });
}

PinnedConnections::PinnedConnections(const CloneTarget& target, std::function<bool()> stop)
    : state_(new State{&target, std::move(stop)}), previous_(current) {
  current = state_;
}

PinnedConnections::~PinnedConnections() {
  current = previous_;
  delete state_;
}

}  // namespace docs_generation
