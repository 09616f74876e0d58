#include "docs/support/upload_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <docs/codec/codec.hpp>

namespace docs::support {

UploadFile::UploadFile(const std::string& directory) {
  std::filesystem::create_directories(directory);
  tempPath_ = directory + "/.upload-" + codec::randomHex(8) + ".part";
  file_ = std::fopen(tempPath_.c_str(), "wbx");
  if (!file_) throw std::runtime_error("cannot create " + tempPath_);
}

UploadFile::~UploadFile() {
  if (file_) std::fclose(file_);
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(tempPath_, ignored);
  }
}

void UploadFile::write(const char* data, std::size_t size) {
  if (size && std::fwrite(data, 1, size, file_) != size) throw std::runtime_error("cannot write " + tempPath_);
  size_ += size;
}

void UploadFile::commit(const std::string& finalPath) {
  if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0) throw std::runtime_error("cannot flush " + tempPath_);
  std::fclose(file_);
  file_ = nullptr;
  std::filesystem::rename(tempPath_, finalPath);
  committed_ = true;
}

}  // namespace docs::support
