#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc {

struct DeleteRange {
  uint64_t clock = 0;
  uint64_t len = 0;
  bool operator==(const DeleteRange&) const = default;
};

// client -> ranges of deleted clocks (yjs DeleteSet).
struct DeleteSet {
  std::map<uint64_t, std::vector<DeleteRange>> clients;

  void add(uint64_t client, uint64_t clock, uint64_t len);
  // Sorts each client's ranges and joins touching or overlapping ones.
  void sortAndMerge();
  bool contains(uint64_t client, uint64_t clock) const;
  bool operator==(const DeleteSet&) const = default;
};

// Clients with zero ranges are dropped, like yjs readDeleteSet.
DeleteSet readDeleteSet(Decoder& dec);
void writeDeleteSet(Encoder& enc, const DeleteSet& ds);
// Union of several delete sets, sorted and merged (yjs mergeDeleteSets).
DeleteSet mergeDeleteSets(const std::vector<DeleteSet>& sets);

}  // namespace docs::ydoc
