#include "format_cleanup.hpp"

namespace docs::ydoc::detail {

size_t cleanupFormattingGap(Doc& doc, Transaction& t, Item* start, Item* curr, const Attributes& startAttributes,
                            Attributes& currAttributes) {
  size_t cleanups = 0;
  Item* end = start;
  std::vector<std::pair<std::string, const ContentFormat*>> endFormats;
  const auto setEnd = [&](const std::string& key, const ContentFormat* cf) {
    for (auto& e : endFormats) {
      if (e.first == key) {
        e.second = cf;
        return;
      }
    }
    endFormats.emplace_back(key, cf);
  };
  const auto getEnd = [&](const std::string& key) -> const ContentFormat* {
    for (const auto& e : endFormats) {
      if (e.first == key) return e.second;
    }
    return nullptr;
  };
  while (end != nullptr && (!end->countable() || end->deleted)) {
    if (!end->deleted) {
      if (const auto* cf = std::get_if<ContentFormat>(&end->content)) setEnd(cf->key, cf);
    }
    end = end->right;
  }
  bool reachedCurr = false;
  while (start != end) {
    if (curr == start) reachedCurr = true;
    if (!start->deleted) {
      if (const auto* cf = std::get_if<ContentFormat>(&start->content)) {
        const AttrValue startValue = startAttributes.get(cf->key);
        const AttrValue value{cf->json, identityOf(*cf)};
        if (getEnd(cf->key) != cf || startValue.same(value)) {
          doc.deleteItem(t, start);
          ++cleanups;
          const AttrValue currValue = currAttributes.get(cf->key);
          if (!reachedCurr && currValue.same(value) && !startValue.same(value)) {
            if (startValue.json == "null") {
              currAttributes.erase(cf->key);
            } else {
              currAttributes.set(cf->key, startValue);
            }
          }
        }
        if (!reachedCurr && !start->deleted) currAttributes.update(*cf);
      }
    }
    start = start->right;
  }
  return cleanups;
}

}  // namespace docs::ydoc::detail
