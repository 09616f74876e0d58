// Encoding a document's state (yjs writeStateAsUpdate / encodeStateAsUpdate).
#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace {

constexpr uint8_t kBitOrigin = 0x80;
constexpr uint8_t kBitRightOrigin = 0x40;
constexpr uint8_t kBitParentSub = 0x20;

void writeId(Encoder& enc, const Id& id) {
  enc.writeVarUint(id.client);
  enc.writeVarUint(id.clock);
}

// yjs Item.write / GC.write.
void writeItem(Encoder& enc, const Item& item, uint64_t offset) {
  if (item.isGc) {
    enc.writeUint8(kInfoGc);
    enc.writeVarUint(item.length - offset);
    return;
  }
  const std::optional<Id> origin =
      offset > 0 ? std::optional<Id>(Id{item.id.client, item.id.clock + offset - 1}) : item.origin;
  const uint8_t info =
      static_cast<uint8_t>((contentRef(item.content) & 0x1F) | (origin ? kBitOrigin : 0) |
                           (item.rightOrigin ? kBitRightOrigin : 0) | (item.parentSub ? kBitParentSub : 0));
  enc.writeUint8(info);
  if (origin) writeId(enc, *origin);
  if (item.rightOrigin) writeId(enc, *item.rightOrigin);
  if (!origin && !item.rightOrigin) {
    const YType* parent = item.parent;
    if (parent->item == nullptr) {
      enc.writeVarUint(1);
      enc.writeVarString(parent->rootName);
    } else {
      enc.writeVarUint(0);
      writeId(enc, parent->item->id);
    }
    if (item.parentSub) enc.writeVarString(*item.parentSub);
  }
  writeContent(enc, item.content, offset);
}

}  // namespace

void Doc::encodeStructs(Encoder& enc, const StateVector& target) const {
  StateVector sm;
  for (const auto& [client, clock] : target) {
    if (getState(client) > clock) sm[client] = clock;
  }
  for (const auto& [client, structs] : clients_) {
    if (!structs.empty() && target.find(client) == target.end()) sm[client] = 0;
  }
  enc.writeVarUint(sm.size());
  for (auto it = sm.rbegin(); it != sm.rend(); ++it) {
    const auto& structs = clients_.at(it->first);
    const uint64_t clock = std::max(it->second, structs.front()->id.clock);
    const size_t start = findIndex(structs, clock);
    enc.writeVarUint(structs.size() - start);
    enc.writeVarUint(it->first);
    enc.writeVarUint(clock);
    writeItem(enc, *structs[start], clock - structs[start]->id.clock);
    for (size_t i = start + 1; i < structs.size(); ++i) writeItem(enc, *structs[i], 0);
  }
}

DeleteSet Doc::storeDeleteSet() const {
  DeleteSet ds;
  for (const auto& [client, structs] : clients_) {
    std::vector<DeleteRange> ranges;
    for (size_t i = 0; i < structs.size(); ++i) {
      const Item* s = structs[i];
      if (!s->isDeleted()) continue;
      uint64_t len = s->length;
      while (i + 1 < structs.size() && structs[i + 1]->isDeleted()) {
        len += structs[i + 1]->length;
        ++i;
      }
      ranges.push_back({s->id.clock, len});
    }
    if (!ranges.empty()) ds.clients.emplace(client, std::move(ranges));
  }
  return ds;
}

Bytes Doc::encodeStateAsUpdate(std::span<const uint8_t> encodedStateVector) const {
  static const uint8_t kEmptySv[] = {0};
  const std::span<const uint8_t> svBytes =
      encodedStateVector.empty() ? std::span<const uint8_t>(kEmptySv) : encodedStateVector;
  const StateVector target = decodeStateVector(svBytes);
  Encoder enc;
  encodeStructs(enc, target);
  writeDeleteSet(enc, storeDeleteSet());
  std::vector<Bytes> parts;
  parts.push_back(enc.take());
  if (pendingDs_) parts.push_back(*pendingDs_);
  if (pendingStructs_) parts.push_back(diffUpdate(pendingStructs_->update, svBytes));
  if (parts.size() == 1) return std::move(parts.front());
  std::vector<std::span<const uint8_t>> spans(parts.begin(), parts.end());
  return mergeUpdates(spans);
}

bool Doc::containsUpdate(std::span<const uint8_t> update) const {
  // The usual answer (an edit brings a struct the document lacks) needs no state vector
  // and no delete set; collecting the delete set walks every struct of the document.
  for (const Struct& s : decodeUpdate(update).structs)
    if (getState(s.id.client) < s.id.clock + s.length) return false;
  return snapshotContainsUpdate(stateVector(), storeDeleteSet(), update);
}

// ---- local edits ----------------------------------------------------------

Item* Doc::insertAfter(Transaction& tr, YType& parent, Item* left, Content content) {
  Item* right = left == nullptr ? parent.start : left->right;
  Item* item = newItem();
  item->id = {clientId_, getState(clientId_)};
  item->left = left;
  item->origin = left ? std::optional<Id>(left->lastId()) : std::nullopt;
  item->right = right;
  item->rightOrigin = right ? std::optional<Id>(right->id) : std::nullopt;
  item->parent = &parent;
  item->content = std::move(content);
  item->length = contentLength(item->content);
  integrate(tr, item, 0);
  return item;
}

Item* Doc::insertContent(Transaction& tr, YType& parent, uint64_t index, Content content) {
  if (index > parent.length) throw YdocError("insert index beyond the length of the type");
  if (index == 0) return insertAfter(tr, parent, nullptr, std::move(content));
  Item* n = parent.start;
  for (; n != nullptr; n = n->right) {
    if (!n->deleted && n->countable()) {
      if (index <= n->length) {
        if (index < n->length) getItemCleanStart(tr, {n->id.client, n->id.clock + index});
        break;
      }
      index -= n->length;
    }
  }
  return insertAfter(tr, parent, n, std::move(content));
}

void Doc::setMapValue(Transaction& tr, YType& parent, const std::string& key, Content content) {
  const auto it = parent.map.find(key);
  Item* left = it == parent.map.end() ? nullptr : it->second;
  Item* item = newItem();
  item->id = {clientId_, getState(clientId_)};
  item->left = left;
  item->origin = left ? std::optional<Id>(left->lastId()) : std::nullopt;
  item->parent = &parent;
  item->parentSub = intern(key);
  item->content = std::move(content);
  item->length = contentLength(item->content);
  integrate(tr, item, 0);
}

void Doc::deleteRange(Transaction& tr, YType& parent, uint64_t index, uint64_t length) {
  if (length == 0) return;
  Item* n = parent.start;
  for (; n != nullptr && index > 0; n = n->right) {
    if (!n->deleted && n->countable()) {
      if (index < n->length) getItemCleanStart(tr, {n->id.client, n->id.clock + index});
      index -= std::min(index, n->length);
    }
  }
  while (length > 0 && n != nullptr) {
    if (!n->deleted) {
      if (length < n->length) getItemCleanStart(tr, {n->id.client, n->id.clock + length});
      deleteItem(tr, n);
      length -= std::min(length, n->length);
    }
    n = n->right;
  }
  if (length > 0) throw YdocError("delete range beyond the length of the type");
}

}  // namespace docs::ydoc
