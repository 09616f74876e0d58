#pragma once
// The thinning policy of page history: every version of the last day, the newest of
// each hour for a week, the newest of each day after that; labelled versions always.

#include <cstdint>
#include <vector>

namespace docs_collab {

struct ThinningCandidate {
  std::int64_t id = 0;
  std::int64_t createdAtUnix = 0;
  bool labelled = false;
};

// The ids the policy drops, as of `nowUnix` (any input order).
std::vector<std::int64_t> versionsToThin(std::vector<ThinningCandidate> versions, std::int64_t nowUnix);

}  // namespace docs_collab
