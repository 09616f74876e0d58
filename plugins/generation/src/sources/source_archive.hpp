#pragma once
// Unpacks an uploaded ZIP into a project's source folder, refusing anything that could
// write outside it or exhaust the disk: ".." and absolute names, backslashes, drive
// letters, symbolic links (skipped), too many entries, too many bytes, and compression
// ratios of zip bombs (counted while writing, not taken from the headers).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace docs_generation {

struct ArchiveLimits {
  std::uint64_t maxEntries = 50000;
  std::uint64_t maxTotalBytes = 1ull << 30;  // uncompressed
  std::uint64_t maxFileBytes = 64ull << 20;
  std::uint64_t maxRatio = 200;  // uncompressed / compressed, per entry and in total
};

struct UnpackResult {
  bool ok = false;
  std::string error;  // why not, for people
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::vector<std::string> skipped;  // symbolic links and other special entries
};

// Unpacks into `destination` (created; must not exist yet). On failure the destination
// is removed again. A single top-level folder shared by every entry is stripped.
// `cancelled` is asked between entries; when it says yes the unpack stops and fails.
UnpackResult unpackZip(const std::string& zipPath, const std::string& destination, const ArchiveLimits& limits,
                       const std::function<bool()>& cancelled = {});

// True for an entry name that stays inside the destination ("a/b.txt"), false for
// "../x", "/x", "a\\b", "C:x", names with NUL or empty segments.
bool safeEntryName(const std::string& name);

}  // namespace docs_generation
