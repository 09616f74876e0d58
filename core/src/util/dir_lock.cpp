#include "util/dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace docs::core {

DirLock::DirLock(const std::string& directory) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  std::string path = directory + "/docsd.lock";
  // O_CLOEXEC: a postmaster started from here must not inherit (and keep) the lock.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    char buffer[32] = {0};
    ssize_t n = ::pread(fd_, buffer, sizeof buffer - 1, 0);
    std::string holder = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "unknown";
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    ::close(fd_);
    fd_ = -1;
    throw std::runtime_error("another docsd (pid " + holder + ") is already using the data directory " + directory);
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, pid.data(), pid.size(), 0);
}

DirLock::~DirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace docs::core
