#pragma once
// Builds ZIP archives for tests with libzip, including hostile ones (names outside the
// folder, symbolic links, bombs).

#include <cstdint>
#include <string>
#include <vector>

namespace docs::test {

struct ZipEntry {
  std::string name;
  std::string content;
  bool symlink = false;  // stored with Unix mode S_IFLNK; content is the link target
};

// Writes the archive to `path`; throws std::runtime_error on failure.
void writeZip(const std::string& path, const std::vector<ZipEntry>& entries);

}  // namespace docs::test
