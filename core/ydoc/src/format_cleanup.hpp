#pragma once

// Formatting cleanup shared by remote-transaction cleanup and local text
// deletes (yjs YText cleanupFormattingGap).
#include <string>
#include <utility>
#include <vector>

#include "docs/ydoc/doc.hpp"

namespace docs::ydoc::detail {

// A format value as yjs compares it with ===: primitives by value, objects and
// arrays by identity (the ContentFormat they were parsed from).
struct AttrValue {
  std::string json = "null";
  uintptr_t identity = 0;

  bool isPrimitive() const { return json.empty() || (json[0] != '{' && json[0] != '['); }
  bool same(const AttrValue& other) const {
    if (isPrimitive() || other.isPrimitive()) return json == other.json;
    return identity == other.identity;
  }
};

inline uintptr_t identityOf(const ContentFormat& f) {
  return f.valueId != 0 ? f.valueId : reinterpret_cast<uintptr_t>(&f);
}

// Map of format key -> value, in the order keys were first set (a JS Map).
struct Attributes {
  std::vector<std::pair<std::string, AttrValue>> entries;

  AttrValue get(const std::string& key) const {
    for (const auto& [k, v] : entries) {
      if (k == key) return v;
    }
    return AttrValue{};
  }
  void set(const std::string& key, const AttrValue& value) {
    for (auto& [k, v] : entries) {
      if (k == key) {
        v = value;
        return;
      }
    }
    entries.emplace_back(key, value);
  }
  void erase(const std::string& key) {
    std::erase_if(entries, [&](const auto& e) { return e.first == key; });
  }
  void update(const ContentFormat& f) {
    if (f.json == "null") {
      erase(f.key);
    } else {
      set(f.key, AttrValue{f.json, identityOf(f)});
    }
  }
};

// Deletes format items in [start, first content after start) that are
// overwritten or redundant; returns how many were deleted.
size_t cleanupFormattingGap(Doc& doc, Transaction& t, Item* start, Item* curr, const Attributes& startAttributes,
                            Attributes& currAttributes);

}  // namespace docs::ydoc::detail
