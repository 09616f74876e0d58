// Integration of remote structs: yjs readUpdate / integrateStructs /
// Item.getMissing / Item.integrate (YATA) / readAndApplyDeleteSet.
#include <algorithm>
#include <unordered_set>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace {

// One client's structs of an update: a view into the decoded struct list.
struct ClientRefs {
  std::span<Struct> refs;
  size_t i = 0;
  bool removed = false;  // yjs deletes the entry; we keep the storage alive
};

}  // namespace

// Resolves one decoded struct against the store and integrates it.
class Integrator {
 public:
  Integrator(Doc& doc, Transaction& tr) : doc_(doc), tr_(tr) {}

  // yjs Item.getMissing: the client whose struct this one depends on, if absent.
  std::optional<uint64_t> missing(const Struct& s) const {
    if (s.kind != StructKind::Item) return std::nullopt;
    if (s.origin && s.origin->client != s.id.client && s.origin->clock >= doc_.getState(s.origin->client)) {
      return s.origin->client;
    }
    if (s.rightOrigin && s.rightOrigin->client != s.id.client &&
        s.rightOrigin->clock >= doc_.getState(s.rightOrigin->client)) {
      return s.rightOrigin->client;
    }
    if (s.parent.kind == ParentRef::Kind::Item && s.id.client != s.parent.item.client &&
        s.parent.item.clock >= doc_.getState(s.parent.item.client)) {
      return s.parent.item.client;
    }
    return std::nullopt;
  }

  // Second half of getMissing (find neighbours, splitting as needed) followed by
  // integrate when `apply` (the struct is not already known).
  void resolveAndIntegrate(Struct& s, uint64_t offset, bool apply) {
    if (s.kind == StructKind::Gc) {
      if (apply) integrateGc(s.id, s.length, offset);
      return;
    }
    Item* left = nullptr;
    Item* right = nullptr;
    YType* parent = nullptr;
    const std::string* parentSub = s.parentSub ? doc_.intern(*s.parentSub) : nullptr;
    // self-references are checked against the local state by the caller
    if (s.origin) {
      left = doc_.getItemCleanEnd(tr_, *s.origin);
      s.origin = left->lastId();
    }
    if (s.rightOrigin) {
      right = doc_.getItemCleanStart(tr_, *s.rightOrigin);
      s.rightOrigin = right->id;
    }
    if ((left != nullptr && left->isGc) || (right != nullptr && right->isGc)) {
      parent = nullptr;
    } else if (s.parent.kind == ParentRef::Kind::None) {
      if (left != nullptr) {
        parent = left->parent;
        parentSub = left->parentSub;
      } else if (right != nullptr) {
        parent = right->parent;
        parentSub = right->parentSub;
      }
    } else if (s.parent.kind == ParentRef::Kind::Item) {
      const Item* parentItem = doc_.getItem(s.parent.item);
      if (!parentItem->isGc) {
        if (const auto* ct = std::get_if<ContentType>(&parentItem->content)) parent = ct->type;
      }
    } else {
      parent = &doc_.root(s.parent.rootName);
    }
    if (!apply) return;

    Item* item = doc_.newItem();
    item->id = s.id;
    item->length = s.length;
    item->left = left;
    item->right = right;
    item->origin = s.origin;
    item->rightOrigin = s.rightOrigin;
    item->parent = parent;
    item->parentSub = parentSub;
    item->content = std::move(s.content);
    doc_.integrate(tr_, item, offset);
  }

  void integrateGc(Id id, uint64_t length, uint64_t offset) {
    Item* gc = doc_.newItem();
    gc->isGc = true;
    gc->deleted = true;
    gc->id = {id.client, id.clock + offset};
    gc->length = length - offset;
    doc_.addStruct(gc);
  }

 private:
  Doc& doc_;
  Transaction& tr_;
};

void Doc::integrate(Transaction& tr, Item* item, uint64_t offset) {
  if (offset > 0) {
    item->id.clock += offset;
    item->left = getItemCleanEnd(tr, {item->id.client, item->id.clock - 1});
    item->origin = item->left->lastId();
    item->content = spliceContent(item->content, offset);
    item->length -= offset;
  }
  YType* parent = item->parent;
  if (parent == nullptr) {
    // parent unknown or collected: keep only the clock range as a GC struct
    item->isGc = true;
    item->deleted = true;
    item->left = item->right = nullptr;
    item->content = ContentDeleted{item->length};
    item->parentSub = nullptr;
    addStruct(item);
    return;
  }
  parent->marker = nullptr;
  const auto mapStart = [&](const std::string& key) -> Item* {
    auto it = parent->map.find(key);
    Item* o = it == parent->map.end() ? nullptr : it->second;
    while (o != nullptr && o->left != nullptr) o = o->left;
    return o;
  };
  if ((item->left == nullptr && (item->right == nullptr || item->right->left != nullptr)) ||
      (item->left != nullptr && item->left->right != item->right)) {
    Item* left = item->left;
    Item* o = nullptr;
    if (left != nullptr) {
      o = left->right;
    } else if (item->parentSub) {
      o = mapStart(*item->parentSub);
    } else {
      o = parent->start;
    }
    std::unordered_set<const Item*> conflicting;
    std::unordered_set<const Item*> beforeOrigin;
    while (o != nullptr && o != item->right) {
      beforeOrigin.insert(o);
      conflicting.insert(o);
      if (item->origin == o->origin) {
        if (o->id.client < item->id.client) {
          left = o;
          conflicting.clear();
        } else if (item->rightOrigin == o->rightOrigin) {
          break;  // same integration points: the lower client goes first
        }
      } else if (o->origin && beforeOrigin.count(getItem(*o->origin)) > 0) {
        if (conflicting.count(getItem(*o->origin)) == 0) {
          left = o;
          conflicting.clear();
        }
      } else {
        break;
      }
      o = o->right;
    }
    item->left = left;
  }
  if (item->left != nullptr) {
    item->right = item->left->right;
    item->left->right = item;
  } else {
    Item* r = nullptr;
    if (item->parentSub) {
      r = mapStart(*item->parentSub);
    } else {
      r = parent->start;
      parent->start = item;
    }
    item->right = r;
  }
  if (item->right != nullptr) {
    item->right->left = item;
  } else if (item->parentSub) {
    parent->mapSet(*item->parentSub, item);
    if (item->left != nullptr) deleteItem(tr, item->left);  // the previous value is overwritten
  }
  if (!item->parentSub && item->countable() && !item->deleted) parent->length += item->length;
  addStruct(item);
  if (auto* ct = std::get_if<ContentType>(&item->content)) {
    if (parent->depth + 1 > kMaxTypeDepth) throw InvalidUpdateError("shared types nested too deeply");
    ct->type = newType(ct->ref, ct->name, item);
    ct->type->depth = parent->depth + 1;
  } else if (std::holds_alternative<ContentFormat>(item->content)) {
    parent->hasFormatting = true;
  }
  addChangedType(tr, parent);
  if ((parent->item != nullptr && parent->item->deleted) || (item->parentSub && item->right != nullptr)) {
    deleteItem(tr, item);
  }
}

namespace {

// yjs integrateStructs: integrates what it can; returns the rest as an update.
std::optional<PendingStructs> integrateStructs(Doc& doc, std::map<uint64_t, ClientRefs>& refs, Integrator& integrator) {
  std::vector<uint64_t> ids;
  for (const auto& [client, r] : refs) ids.push_back(client);  // ascending; taken from the back
  if (ids.empty()) return std::nullopt;

  const auto nextTarget = [&]() -> ClientRefs* {
    while (!ids.empty()) {
      ClientRefs& t = refs[ids.back()];
      if (!t.removed && t.i < t.refs.size()) return &t;
      ids.pop_back();
    }
    return nullptr;
  };
  ClientRefs* target = nextTarget();
  if (target == nullptr) return std::nullopt;

  std::map<uint64_t, std::vector<Struct>> rest;
  StateVector missingSv;
  const auto updateMissing = [&](uint64_t client, uint64_t clock) {
    auto it = missingSv.find(client);
    if (it == missingSv.end() || it->second > clock) missingSv[client] = clock;
  };
  std::vector<Struct*> stack;
  Struct* head = &target->refs[target->i++];
  StateVector state;  // cached local state per client

  const auto addStackToRest = [&]() {
    for (Struct* s : stack) {
      const uint64_t client = s->id.client;
      auto it = refs.find(client);
      if (it != refs.end() && !it->second.removed) {
        ClientRefs& inapplicable = it->second;
        --inapplicable.i;
        rest[client].assign(inapplicable.refs.begin() + static_cast<ptrdiff_t>(inapplicable.i),
                            inapplicable.refs.end());
        inapplicable.removed = true;
      } else {
        rest[client] = {*s};
      }
      std::erase(ids, client);
    }
    stack.clear();
  };

  while (true) {
    if (head->kind != StructKind::Skip) {
      const uint64_t client = head->id.client;
      auto st = state.find(client);
      if (st == state.end()) st = state.emplace(client, doc.getState(client)).first;
      const uint64_t localClock = st->second;
      if (localClock < head->id.clock) {
        // an earlier struct of the same client is missing
        stack.push_back(head);
        updateMissing(client, head->id.clock - 1);
        addStackToRest();
      } else {
        const uint64_t offset = localClock - head->id.clock;
        const auto miss = integrator.missing(*head);
        if (miss) {
          stack.push_back(head);
          auto it = refs.find(*miss);
          if (it == refs.end() || it->second.removed || it->second.i == it->second.refs.size()) {
            // depends on an update we have not received yet
            updateMissing(*miss, doc.getState(*miss));
            addStackToRest();
          } else {
            head = &it->second.refs[it->second.i++];
            continue;
          }
        } else {
          const bool apply = offset == 0 || offset < head->length;
          integrator.resolveAndIntegrate(*head, offset, apply);
          if (apply) st->second = head->id.clock + offset + (head->length - offset);
        }
      }
    }
    if (!stack.empty()) {
      head = stack.back();
      stack.pop_back();
    } else if (target != nullptr && !target->removed && target->i < target->refs.size()) {
      head = &target->refs[target->i++];
    } else {
      target = nextTarget();
      if (target == nullptr) break;
      head = &target->refs[target->i++];
    }
  }
  if (rest.empty()) return std::nullopt;
  Encoder enc;
  enc.writeVarUint(rest.size());
  for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
    enc.writeVarUint(it->second.size());
    enc.writeVarUint(it->first);
    enc.writeVarUint(it->second.front().id.clock);
    for (const Struct& s : it->second) writeStruct(enc, s, 0);
  }
  enc.writeVarUint(0);  // empty delete set
  return PendingStructs{std::move(missingSv), enc.take()};
}

}  // namespace

// yjs readAndApplyDeleteSet: returns the deletes that target unknown clocks.
std::optional<Bytes> Doc::applyDeleteSet(Transaction& tr, const DeleteSet& ds) {
  DeleteSet unapplied;
  // yjs reads clients in encoded (descending) order
  for (auto cit = ds.clients.rbegin(); cit != ds.clients.rend(); ++cit) {
    const uint64_t client = cit->first;
    const uint64_t state = getState(client);
    for (const DeleteRange& r : cit->second) {
      const uint64_t clock = r.clock;
      const uint64_t clockEnd = r.clock + r.len;
      if (r.len == 0) continue;
      if (clock < state) {
        if (state < clockEnd) unapplied.add(client, state, clockEnd - state);
        auto& structs = clients_[client];
        size_t index = findIndex(structs, clock);
        Item* s = structs[index];
        if (!s->isDeleted() && s->id.clock < clock) {
          structs.insert(structs.begin() + static_cast<ptrdiff_t>(index) + 1, splitItem(tr, s, clock - s->id.clock));
          ++index;
        }
        while (index < structs.size()) {
          s = structs[index++];
          if (s->id.clock >= clockEnd) break;
          if (!s->isDeleted()) {
            if (clockEnd < s->id.clock + s->length) {
              structs.insert(structs.begin() + static_cast<ptrdiff_t>(index), splitItem(tr, s, clockEnd - s->id.clock));
            }
            deleteItem(tr, s);
          }
        }
      } else {
        unapplied.add(client, clock, clockEnd - clock);
      }
    }
  }
  if (unapplied.clients.empty()) return std::nullopt;
  Encoder enc;
  enc.writeVarUint(0);
  writeDeleteSet(enc, unapplied);
  return enc.take();
}

void Doc::readAndIntegrate(Transaction& tr, std::span<const uint8_t> update) {
  DecodedUpdate decoded = decodeUpdate(update);
  // group per client; a repeated client group replaces the earlier one (as in yjs)
  std::map<uint64_t, ClientRefs> refs;
  {
    size_t i = 0;
    while (i < decoded.structs.size()) {
      const uint64_t client = decoded.structs[i].id.client;
      const size_t begin = i;
      while (i < decoded.structs.size() && decoded.structs[i].id.client == client) ++i;
      refs[client] = ClientRefs{std::span<Struct>(decoded.structs.data() + begin, i - begin), 0, false};
    }
  }
  // resolve root parents now, like yjs does while reading
  for (auto& [client, r] : refs) {
    for (const Struct& s : r.refs) {
      if (s.kind == StructKind::Item && s.parent.kind == ParentRef::Kind::Root) root(s.parent.rootName);
    }
  }
  Integrator integrator(*this, tr);
  auto restStructs = integrateStructs(*this, refs, integrator);
  bool retry = false;
  if (pendingStructs_) {
    for (const auto& [client, clock] : pendingStructs_->missing) {
      if (clock < getState(client)) {
        retry = true;
        break;
      }
    }
    if (restStructs) {
      for (const auto& [client, clock] : restStructs->missing) {
        auto it = pendingStructs_->missing.find(client);
        if (it == pendingStructs_->missing.end() || it->second > clock) pendingStructs_->missing[client] = clock;
      }
      pendingStructs_->update = mergeUpdates({pendingStructs_->update, restStructs->update});
    }
  } else {
    pendingStructs_ = std::move(restStructs);
  }
  auto dsRest = applyDeleteSet(tr, decoded.deleteSet);
  if (pendingDs_) {
    const Bytes pending = *pendingDs_;
    Decoder pdec(pending);
    pdec.readVarUint();  // zero structs
    const DeleteSet pds = readDeleteSet(pdec);
    auto dsRest2 = applyDeleteSet(tr, pds);
    if (dsRest && dsRest2) {
      pendingDs_ = mergeUpdates({*dsRest, *dsRest2});
    } else {
      pendingDs_ = dsRest ? std::move(dsRest) : std::move(dsRest2);
    }
  } else {
    pendingDs_ = std::move(dsRest);
  }
  if (retry) {
    const Bytes again = std::move(pendingStructs_->update);
    pendingStructs_.reset();
    readAndIntegrate(tr, again);
  }
}

void Doc::applyUpdate(std::span<const uint8_t> update) {
  transact([&](Transaction& tr) { readAndIntegrate(tr, update); }, false);
}

}  // namespace docs::ydoc
