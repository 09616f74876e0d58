#include "sources/source_archive.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <filesystem>
#include <memory>

namespace fs = std::filesystem;

namespace docs_generation {
namespace {

struct ZipCloser {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};

bool isSymlinkEntry(zip_t* archive, zip_uint64_t index) {
  zip_uint8_t system = 0;
  zip_uint32_t attributes = 0;
  if (zip_file_get_external_attributes(archive, index, 0, &system, &attributes) != 0) return false;
  if (system != ZIP_OPSYS_UNIX) return false;
  return ((attributes >> 16) & S_IFMT) == S_IFLNK;
}

}  // namespace

bool safeEntryName(const std::string& name) {
  if (name.empty() || name.size() > 4096 || name.front() == '/') return false;
  if (name.find('\\') != std::string::npos || name.find('\0') != std::string::npos) return false;
  if (name.size() >= 2 && name[1] == ':') return false;  // C:...
  std::size_t start = 0;
  while (start <= name.size()) {
    auto end = name.find('/', start);
    std::string segment = name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    bool last = end == std::string::npos;
    if (segment == ".." || segment == "." || (segment.empty() && !last)) return false;
    if (last) break;
    start = end + 1;
  }
  return true;
}

UnpackResult unpackZip(const std::string& zipPath, const std::string& destination, const ArchiveLimits& limits,
                       const std::function<bool()>& cancelled) {
  UnpackResult result;
  int error = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(zip_open(zipPath.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &error));
  if (!archive) {
    zip_error_t details;
    zip_error_init_with_code(&details, error);
    result.error = std::string("The upload is not a readable ZIP archive (") + zip_error_strerror(&details) + ")";
    zip_error_fini(&details);
    return result;
  }
  zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  if (count < 0 || static_cast<std::uint64_t>(count) > limits.maxEntries) {
    result.error = "The archive has more than " + std::to_string(limits.maxEntries) + " entries";
    return result;
  }
  // Names first: refuse the whole archive if any entry would land outside.
  std::vector<std::string> names(static_cast<std::size_t>(count));
  std::string commonRoot;
  bool rootShared = true;
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(archive.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_GUESS);
    if (!name || !safeEntryName(name)) {
      result.error = std::string("The archive has an entry named outside its folder: ") + (name ? name : "(unnamed)");
      return result;
    }
    names[static_cast<std::size_t>(i)] = name;
    // GitHub's archives put everything under "<repo>-<branch>/": strip a shared folder.
    const std::string& entry = names[static_cast<std::size_t>(i)];
    auto slash = entry.find('/');
    if (slash != std::string::npos && i == 0) {
      commonRoot = entry.substr(0, slash);
    } else if (slash == std::string::npos || entry.compare(0, slash, commonRoot) != 0 || slash != commonRoot.size()) {
      rootShared = false;
    }
  }
  std::size_t strip = rootShared && !commonRoot.empty() ? commonRoot.size() + 1 : 0;

  std::error_code ec;
  if (fs::exists(destination, ec)) {
    result.error = "The source folder exists already";
    return result;
  }
  fs::create_directories(destination, ec);
  auto fail = [&](std::string message) {
    result.ok = false;
    result.error = std::move(message);
    std::error_code ignored;
    fs::remove_all(destination, ignored);
    return result;
  };

  std::uint64_t totalCompressed = 0;
  char buffer[65536];
  for (zip_int64_t i = 0; i < count; ++i) {
    auto index = static_cast<zip_uint64_t>(i);
    if (cancelled && cancelled()) return fail("The unpack was cancelled");
    std::string name = names[index].size() > strip ? names[index].substr(strip) : "";
    if (name.empty()) continue;
    if (isSymlinkEntry(archive.get(), index)) {
      result.skipped.push_back(name);
      continue;
    }
    fs::path target = fs::path(destination) / name;
    if (name.back() == '/') {
      fs::create_directories(target, ec);
      continue;
    }
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive.get(), index, 0, &stat) != 0) return fail("The archive is damaged at " + name);
    std::uint64_t compressed = (stat.valid & ZIP_STAT_COMP_SIZE) ? stat.comp_size : 0;
    totalCompressed += compressed;
    fs::create_directories(target.parent_path(), ec);
    if (ec) return fail("Cannot create the folder for " + name);
    std::unique_ptr<zip_file_t, ZipFileCloser> file(zip_fopen_index(archive.get(), index, 0));
    if (!file) return fail("The archive is damaged at " + name + " (" + zip_strerror(archive.get()) + ")");
    // O_EXCL | O_NOFOLLOW: never through a link, never over an earlier entry.
    int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return fail("Cannot write " + name + " (a duplicate or clashing entry)");
    std::uint64_t written = 0;
    while (true) {
      zip_int64_t n = zip_fread(file.get(), buffer, sizeof buffer);
      if (n < 0) {
        ::close(fd);
        return fail("The archive is damaged at " + name + " (" + zip_file_strerror(file.get()) + ")");
      }
      if (n == 0) break;
      written += static_cast<std::uint64_t>(n);
      result.bytes += static_cast<std::uint64_t>(n);
      if (written > limits.maxFileBytes) {
        ::close(fd);
        return fail(name + " is larger than " + std::to_string(limits.maxFileBytes >> 20) + " MB unpacked");
      }
      if (result.bytes > limits.maxTotalBytes) {
        ::close(fd);
        return fail("The archive unpacks to more than " + std::to_string(limits.maxTotalBytes >> 20) + " MB");
      }
      // A zip bomb expands far more than real files do.
      if (written > (1u << 20) && written > (compressed + 1) * limits.maxRatio) {
        ::close(fd);
        return fail(name + " expands more than " + std::to_string(limits.maxRatio) + " times: refused as a zip bomb");
      }
      if (result.bytes > (16u << 20) && result.bytes > (totalCompressed + 1) * limits.maxRatio) {
        ::close(fd);
        return fail("The archive expands more than " + std::to_string(limits.maxRatio) +
                    " times: refused as a zip bomb");
      }
      if (::write(fd, buffer, static_cast<std::size_t>(n)) != n) {
        ::close(fd);
        return fail("Cannot write " + name + " (disk full?)");
      }
    }
    ::close(fd);
    ++result.files;
  }
  result.ok = true;
  return result;
}

}  // namespace docs_generation
