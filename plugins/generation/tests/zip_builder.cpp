#include "zip_builder.hpp"

#include <sys/stat.h>
#include <zip.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace docs::test {

void writeZip(const std::string& path, const std::vector<ZipEntry>& entries) {
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (!archive) throw std::runtime_error("zip_open failed");
  for (const auto& entry : entries) {
    // libzip copies the buffer on close only if asked; keep it alive by letting it own a copy.
    void* copy = std::malloc(entry.content.size() ? entry.content.size() : 1);
    std::copy(entry.content.begin(), entry.content.end(), static_cast<char*>(copy));
    zip_source_t* source = zip_source_buffer(archive, copy, entry.content.size(), 1);
    zip_int64_t index = zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(source);
      zip_discard(archive);
      throw std::runtime_error("zip_file_add failed for " + entry.name + ": " + zip_strerror(archive));
    }
    if (entry.symlink)
      zip_file_set_external_attributes(archive, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                       static_cast<zip_uint32_t>(S_IFLNK | 0777) << 16);
  }
  if (zip_close(archive) != 0) {
    std::string message = zip_strerror(archive);
    zip_discard(archive);
    throw std::runtime_error("zip_close failed: " + message);
  }
}

}  // namespace docs::test
