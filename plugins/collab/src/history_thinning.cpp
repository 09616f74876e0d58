#include "history_thinning.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace docs_collab {

namespace {
constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kDay = 24 * kHour;
constexpr std::int64_t kWeek = 7 * kDay;
}  // namespace

std::vector<std::int64_t> versionsToThin(std::vector<ThinningCandidate> versions, std::int64_t nowUnix) {
  // Newest first, so the first version seen in a bucket is the one kept.
  std::sort(versions.begin(), versions.end(), [](const auto& a, const auto& b) {
    return a.createdAtUnix != b.createdAtUnix ? a.createdAtUnix > b.createdAtUnix : a.id > b.id;
  });
  std::set<std::pair<int, std::int64_t>> seenBuckets;  // (granularity, bucket)
  std::vector<std::int64_t> dropped;
  for (const auto& version : versions) {
    std::int64_t age = nowUnix - version.createdAtUnix;
    if (version.labelled || age < kDay) continue;
    bool hourly = age < kWeek;
    std::pair<int, std::int64_t> bucket{hourly ? 0 : 1, version.createdAtUnix / (hourly ? kHour : kDay)};
    if (!seenBuckets.insert(bucket).second) dropped.push_back(version.id);
  }
  return dropped;
}

}  // namespace docs_collab
