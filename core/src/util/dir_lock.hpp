#pragma once
// An exclusive lock on a data directory, so two docsd never share one. It is a flock on
// a file inside the directory: the kernel drops it when the process dies, even by kill -9.

#include <string>

namespace docs::core {

class DirLock {
 public:
  // Throws std::runtime_error naming the holder's pid when another process has the lock.
  explicit DirLock(const std::string& directory);
  ~DirLock();
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace docs::core
