// Transaction cleanup: format cleanup after remote changes, garbage collection
// of deleted content and struct merging (yjs cleanupTransactions).
#include <algorithm>
#include <unordered_set>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "format_cleanup.hpp"

namespace docs::ydoc {
namespace {

uint64_t stateOf(const StateVector& sv, uint64_t client) {
  const auto it = sv.find(client);
  return it == sv.end() ? 0 : it->second;
}

// yjs Item.mergeWith / GC.mergeWith.
bool mergeItems(Item* left, Item* right) {
  if (left->isGc != right->isGc) return false;
  if (left->isGc) {
    left->length += right->length;
    return true;
  }
  if (!(right->origin && *right->origin == left->lastId())) return false;
  if (left->right != right) return false;
  if (left->rightOrigin != right->rightOrigin) return false;
  if (left->id.client != right->id.client || left->id.clock + left->length != right->id.clock) return false;
  if (left->deleted != right->deleted) return false;
  if (left->content.index() != right->content.index()) return false;
  const uint64_t leftVisible = !left->deleted && left->countable() ? left->length : 0;
  if (!mergeContent(left->content, right->content)) return false;
  if (right->parent != nullptr && right->parent->marker == right) {
    right->parent->marker = left;
    right->parent->markerIndex -= leftVisible;
  }
  if (right->keep) left->keep = true;
  left->right = right->right;
  if (left->right != nullptr) left->right->left = left;
  left->length += right->length;
  return true;
}

}  // namespace

class TransactionCleanup {
 public:
  TransactionCleanup(Doc& doc, Transaction& tr) : doc_(doc), tr_(tr) {}

  // returns how many structs were merged into their left neighbour
  size_t tryToMergeWithLefts(std::vector<Item*>& structs, size_t pos) {
    Item* right = structs[pos];
    Item* left = structs[pos - 1];
    size_t i = pos;
    while (i > 0) {
      if (left->isDeleted() == right->isDeleted() && left->isGc == right->isGc && mergeItems(left, right)) {
        if (!right->isGc && right->parentSub) {
          auto it = right->parent->map.find(*right->parentSub);
          if (it != right->parent->map.end() && it->second == right) it->second = left;
        }
        --i;
        right = left;
        left = i > 0 ? structs[i - 1] : nullptr;
        continue;
      }
      break;
    }
    const size_t merged = pos - i;
    if (merged > 0) {
      for (size_t k = pos + 1 - merged; k <= pos; ++k) doc_.freeItem(structs[k]);
      structs.erase(structs.begin() + static_cast<ptrdiff_t>(pos + 1 - merged),
                    structs.begin() + static_cast<ptrdiff_t>(pos + 1));
    }
    return merged;
  }

  void gcDeleteSet(const DeleteSet& ds) {
    for (const auto& [client, ranges] : ds.clients) {
      auto cit = doc_.clients_.find(client);
      if (cit == doc_.clients_.end()) continue;
      auto& structs = cit->second;
      for (auto r = ranges.rbegin(); r != ranges.rend(); ++r) {
        const uint64_t end = r->clock + r->len;
        for (size_t si = doc_.findIndex(structs, r->clock); si < structs.size() && structs[si]->id.clock < end; ++si) {
          Item* s = structs[si];
          if (!s->isGc && s->deleted && !s->keep) doc_.gcItem(s, false);
        }
      }
    }
  }

  void mergeDeleteSet(const DeleteSet& ds) {
    for (const auto& [client, ranges] : ds.clients) {
      auto cit = doc_.clients_.find(client);
      if (cit == doc_.clients_.end()) continue;
      auto& structs = cit->second;
      for (auto r = ranges.rbegin(); r != ranges.rend(); ++r) {
        if (structs.empty()) break;
        const int64_t last = static_cast<int64_t>(structs.size()) - 1;
        int64_t si = std::min(last, 1 + static_cast<int64_t>(doc_.findIndex(structs, r->clock + r->len - 1)));
        while (si > 0 && structs[static_cast<size_t>(si)]->id.clock >= r->clock) {
          si -= 1 + static_cast<int64_t>(tryToMergeWithLefts(structs, static_cast<size_t>(si)));
        }
      }
    }
  }

  void run() {
    tr_.deleteSet.sortAndMerge();
    const StateVector after = doc_.stateVector();
    if (!tr_.local) formatCleanup(after);
    if (doc_.gc_) gcDeleteSet(tr_.deleteSet);
    mergeDeleteSet(tr_.deleteSet);
    for (const auto& [client, clock] : after) {
      const uint64_t before = stateOf(tr_.beforeState, client);
      if (before == clock) continue;
      auto& structs = doc_.clients_[client];
      const int64_t firstChangePos = std::max<int64_t>(static_cast<int64_t>(doc_.findIndex(structs, before)), 1);
      for (int64_t i = static_cast<int64_t>(structs.size()) - 1; i >= firstChangePos;) {
        i -= 1 + static_cast<int64_t>(tryToMergeWithLefts(structs, static_cast<size_t>(i)));
      }
    }
    for (auto it = tr_.mergeStructs.rbegin(); it != tr_.mergeStructs.rend(); ++it) {
      auto& structs = doc_.clients_[it->client];
      const size_t pos = doc_.findIndex(structs, it->clock);
      if (pos + 1 < structs.size() && tryToMergeWithLefts(structs, pos + 1) > 1) continue;
      if (pos > 0) tryToMergeWithLefts(structs, pos);
    }
  }

 private:
  // yjs iterateStructs: visits structs covering [clock, clock + len), splitting at the ends.
  template <typename F>
  void iterateStructs(std::vector<Item*>& structs, uint64_t clock, uint64_t len, F&& f) {
    if (len == 0) return;
    const uint64_t clockEnd = clock + len;
    size_t index = doc_.findIndexCleanStart(tr_, structs, clock);
    Item* s = nullptr;
    do {
      s = structs[index++];
      if (clockEnd < s->id.clock + s->length) doc_.findIndexCleanStart(tr_, structs, clockEnd);
      f(s);
    } while (index < structs.size() && structs[index]->id.clock < clockEnd);
  }

  void cleanupContextlessGap(Transaction& t, Item* item) {
    while (item != nullptr && item->right != nullptr && (item->right->deleted || !item->right->countable())) {
      item = item->right;
    }
    std::unordered_set<std::string> keys;
    while (item != nullptr && (item->deleted || !item->countable())) {
      if (!item->deleted) {
        if (const auto* cf = std::get_if<ContentFormat>(&item->content)) {
          if (!keys.insert(cf->key).second) doc_.deleteItem(t, item);
        }
      }
      item = item->left;
    }
  }

  void cleanupWholeText(YType* type) {
    doc_.transact([&](Transaction& t) {
      Item* start = type->start;
      Item* end = type->start;
      detail::Attributes startAttributes;
      detail::Attributes current;
      while (end != nullptr) {
        if (!end->deleted) {
          if (const auto* cf = std::get_if<ContentFormat>(&end->content)) {
            current.update(*cf);
          } else {
            detail::cleanupFormattingGap(doc_, t, start, end, startAttributes, current);
            startAttributes = current;
            start = end;
          }
        }
        end = end->right;
      }
    });
  }

  // yjs cleanupYTextAfterTransaction, run for remote transactions that touched
  // an existing text with formatting.
  void formatCleanup(const StateVector& after) {
    bool needed = false;
    for (YType* t : tr_.changedText) {
      if ((t->item == nullptr || !t->item->deleted) && t->hasFormatting) needed = true;
    }
    if (!needed) return;
    std::vector<YType*> fullCleanup;
    const auto addFull = [&](YType* t) {
      if (std::find(fullCleanup.begin(), fullCleanup.end(), t) == fullCleanup.end()) fullCleanup.push_back(t);
    };
    const auto inFull = [&](YType* t) {
      return std::find(fullCleanup.begin(), fullCleanup.end(), t) != fullCleanup.end();
    };
    for (const auto& [client, afterClock] : after) {
      const uint64_t clock = stateOf(tr_.beforeState, client);
      if (afterClock == clock) continue;
      // yjs passes afterClock as the length here; harmless beyond the end
      iterateStructs(doc_.clients_[client], clock, afterClock, [&](Item* item) {
        if (!item->isGc && !item->deleted && std::holds_alternative<ContentFormat>(item->content)) {
          addFull(item->parent);
        }
      });
    }
    doc_.transact([&](Transaction& t) {
      // clients in the order their deletes happened, as yjs iterates its Map
      for (const uint64_t client : tr_.deleteOrder) {
        const auto& ranges = tr_.deleteSet.clients.at(client);
        auto cit = doc_.clients_.find(client);
        if (cit == doc_.clients_.end() || cit->second.empty()) continue;
        auto& structs = cit->second;
        const uint64_t clockState = structs.back()->id.clock + structs.back()->length;
        for (const auto& del : ranges) {
          if (del.clock >= clockState) break;
          iterateStructs(structs, del.clock, del.len, [&](Item* item) {
            if (item->isGc || !item->parent->hasFormatting || inFull(item->parent)) return;
            if (std::holds_alternative<ContentFormat>(item->content)) {
              addFull(item->parent);
            } else {
              cleanupContextlessGap(t, item);
            }
          });
        }
      }
      for (YType* t2 : fullCleanup) cleanupWholeText(t2);
    });
  }

  Doc& doc_;
  Transaction& tr_;
};

void Doc::gcItem(Item* item, bool parentGcd) {
  if (!item->deleted) return;  // yjs asserts; hostile input must not crash us
  if (auto* ct = std::get_if<ContentType>(&item->content); ct != nullptr && ct->type != nullptr) {
    YType* type = ct->type;
    for (Item* child = type->start; child != nullptr;) {
      Item* next = child->right;
      if (!child->isGc) gcItem(child, true);
      child = next;
    }
    type->start = nullptr;
    for (const auto& key : type->mapOrder) {
      for (Item* v = type->map[key]; v != nullptr;) {
        Item* next = v->left;
        if (!v->isGc) gcItem(v, true);
        v = next;
      }
    }
    type->map.clear();
    type->mapOrder.clear();
  }
  if (parentGcd) {
    replaceWithGc(item);
  } else {
    item->content = ContentDeleted{item->length};
  }
}

void Doc::cleanup(Transaction& tr) { TransactionCleanup(*this, tr).run(); }

}  // namespace docs::ydoc
