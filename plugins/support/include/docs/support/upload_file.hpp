#pragma once
// A file written under a temporary name and renamed into place only when complete, so
// an upload that stops halfway leaves nothing behind.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace docs::support {

class UploadFile {
 public:
  // Creates the directory if needed and opens "<dir>/.upload-<random>.part".
  explicit UploadFile(const std::string& directory);
  ~UploadFile();  // removes the temporary file unless commit() succeeded
  UploadFile(const UploadFile&) = delete;
  UploadFile& operator=(const UploadFile&) = delete;

  void write(const char* data, std::size_t size);
  std::uint64_t size() const { return size_; }
  // Flushes, syncs and renames to finalPath (replacing any file there).
  void commit(const std::string& finalPath);

 private:
  std::string tempPath_;
  std::FILE* file_ = nullptr;
  std::uint64_t size_ = 0;
  bool committed_ = false;
};

}  // namespace docs::support
