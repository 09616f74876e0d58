#include "docs/ydoc/delete_set.hpp"

#include <algorithm>

namespace docs::ydoc {

void DeleteSet::add(uint64_t client, uint64_t clock, uint64_t len) { clients[client].push_back({clock, len}); }

void DeleteSet::sortAndMerge() {
  for (auto& [client, dels] : clients) {
    std::sort(dels.begin(), dels.end(), [](const auto& a, const auto& b) { return a.clock < b.clock; });
    size_t j = 1;
    for (size_t i = 1; i < dels.size(); ++i) {
      DeleteRange& left = dels[j - 1];
      const DeleteRange& right = dels[i];
      if (left.clock + left.len >= right.clock) {
        left.len = std::max(left.len, right.clock + right.len - left.clock);
      } else {
        if (j < i) dels[j] = right;
        ++j;
      }
    }
    if (!dels.empty()) dels.resize(j);
  }
}

bool DeleteSet::contains(uint64_t client, uint64_t clock) const {
  const auto it = clients.find(client);
  if (it == clients.end()) return false;
  const auto& dels = it->second;
  // ranges are sorted after sortAndMerge(); binary search the last range starting <= clock
  auto pos =
      std::upper_bound(dels.begin(), dels.end(), clock, [](uint64_t c, const DeleteRange& r) { return c < r.clock; });
  if (pos == dels.begin()) return false;
  --pos;
  return clock < pos->clock + pos->len;
}

DeleteSet readDeleteSet(Decoder& dec) {
  DeleteSet ds;
  const uint64_t numClients = dec.readCount();
  for (uint64_t i = 0; i < numClients; ++i) {
    const uint64_t client = dec.readVarUint();
    const uint64_t numRanges = dec.readCount();
    if (numRanges == 0) continue;
    auto& ranges = ds.clients[client];
    for (uint64_t r = 0; r < numRanges; ++r) {
      const uint64_t clock = dec.readVarUint();
      const uint64_t len = dec.readVarUint();
      ranges.push_back({clock, len});
    }
  }
  return ds;
}

void writeDeleteSet(Encoder& enc, const DeleteSet& ds) {
  enc.writeVarUint(ds.clients.size());
  for (auto it = ds.clients.rbegin(); it != ds.clients.rend(); ++it) {
    enc.writeVarUint(it->first);
    enc.writeVarUint(it->second.size());
    for (const auto& r : it->second) {
      enc.writeVarUint(r.clock);
      enc.writeVarUint(r.len);
    }
  }
}

DeleteSet mergeDeleteSets(const std::vector<DeleteSet>& sets) {
  DeleteSet merged;
  for (const auto& ds : sets) {
    for (const auto& [client, ranges] : ds.clients) {
      auto& out = merged.clients[client];
      out.insert(out.end(), ranges.begin(), ranges.end());
    }
  }
  merged.sortAndMerge();
  return merged;
}

}  // namespace docs::ydoc
