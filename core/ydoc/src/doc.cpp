#include "docs/ydoc/doc.hpp"

#include <random>

#include "docs/ydoc/error.hpp"

namespace docs::ydoc {

uint64_t randomClientId() {
  std::random_device rd;
  return static_cast<uint32_t>(rd());
}

const Item* YType::mapGet(const std::string& key) const {
  const auto it = map.find(key);
  if (it == map.end() || it->second == nullptr || it->second->isDeleted()) return nullptr;
  return it->second;
}

void YType::mapSet(const std::string& key, Item* value) {
  auto [it, inserted] = map.try_emplace(key, value);
  if (inserted) {
    mapOrder.push_back(key);
  } else {
    it->second = value;
  }
}

Doc::Doc(uint64_t clientId, bool gc) : clientId_(clientId == 0 ? randomClientId() : clientId), gc_(gc) {}

Doc::~Doc() = default;

Item* Doc::newItem() {
  if (!freeItems_.empty()) {
    Item* item = freeItems_.back();
    freeItems_.pop_back();
    *item = Item{};
    return item;
  }
  return &itemPool_.emplace_back();
}

void Doc::freeItem(Item* item) {
  item->content = ContentDeleted{};  // release string/array memory early
  item->parentSub = nullptr;
  freeItems_.push_back(item);
}

YType* Doc::newType(TypeRef ref, std::string name, Item* owner) {
  YType& t = types_.emplace_back();
  t.ref = ref;
  t.name = std::move(name);
  t.item = owner;
  t.doc = this;
  return &t;
}

const std::string* Doc::intern(const std::string& key) { return &*keys_.insert(key).first; }

YType& Doc::root(const std::string& name, TypeRef ref) {
  auto it = share_.find(name);
  if (it != share_.end()) return *it->second;
  YType* t = newType(ref, {}, nullptr);
  t->rootName = name;
  share_.emplace(name, t);
  return *t;
}

const YType* Doc::findRoot(const std::string& name) const {
  const auto it = share_.find(name);
  return it == share_.end() ? nullptr : it->second;
}

uint64_t Doc::getState(uint64_t client) const {
  const auto it = clients_.find(client);
  if (it == clients_.end() || it->second.empty()) return 0;
  const Item* last = it->second.back();
  return last->id.clock + last->length;
}

StateVector Doc::stateVector() const {
  StateVector sv;
  for (const auto& [client, structs] : clients_) {
    if (!structs.empty()) sv[client] = structs.back()->id.clock + structs.back()->length;
  }
  return sv;
}

Bytes Doc::encodeStateVector() const { return ydoc::encodeStateVector(stateVector()); }

size_t Doc::findIndex(const std::vector<Item*>& structs, uint64_t clock) const {
  if (structs.empty()) throw InvalidUpdateError("reference to a struct of an unknown client");
  size_t left = 0;
  size_t right = structs.size() - 1;
  const Item* mid = structs[right];
  // most lookups during sequential loads hit the last struct
  if (mid->id.clock <= clock && clock < mid->id.clock + mid->length) return right;
  // pivot on the expected position like yjs; then plain binary search
  const uint64_t span = mid->id.clock + mid->length - 1;
  size_t midIndex =
      span == 0
          ? 0
          : static_cast<size_t>((static_cast<double>(clock) / static_cast<double>(span)) * static_cast<double>(right));
  if (midIndex > right) midIndex = right;
  while (left <= right) {
    mid = structs[midIndex];
    if (mid->id.clock <= clock) {
      if (clock < mid->id.clock + mid->length) return midIndex;
      left = midIndex + 1;
    } else {
      if (midIndex == 0) break;
      right = midIndex - 1;
    }
    midIndex = (left + right) / 2;
  }
  throw InvalidUpdateError("reference to a struct that does not exist");
}

Item* Doc::getItem(const Id& id) const {
  const auto it = clients_.find(id.client);
  if (it == clients_.end()) throw InvalidUpdateError("reference to a struct of an unknown client");
  return it->second[findIndex(it->second, id.clock)];
}

Item* Doc::splitItem(Transaction& tr, Item* left, uint64_t diff) {
  Item* right = newItem();
  right->id = {left->id.client, left->id.clock + diff};
  right->left = left;
  right->origin = Id{left->id.client, left->id.clock + diff - 1};
  right->right = left->right;
  right->rightOrigin = left->rightOrigin;
  right->parent = left->parent;
  right->parentSub = left->parentSub;
  right->content = spliceContent(left->content, diff);
  right->length = contentLength(right->content);
  right->deleted = left->deleted;
  right->keep = left->keep;
  left->right = right;
  if (right->right != nullptr) right->right->left = right;
  tr.mergeStructs.push_back(right->id);
  if (right->parentSub && right->right == nullptr) right->parent->mapSet(*right->parentSub, right);
  left->length = diff;
  return right;
}

size_t Doc::findIndexCleanStart(Transaction& tr, std::vector<Item*>& structs, uint64_t clock) {
  const size_t index = findIndex(structs, clock);
  Item* s = structs[index];
  if (s->id.clock < clock && !s->isGc) {
    Item* right = splitItem(tr, s, clock - s->id.clock);
    structs.insert(structs.begin() + static_cast<ptrdiff_t>(index) + 1, right);
    return index + 1;
  }
  return index;
}

Item* Doc::getItemCleanStart(Transaction& tr, const Id& id) {
  auto it = clients_.find(id.client);
  if (it == clients_.end()) throw InvalidUpdateError("reference to a struct of an unknown client");
  auto& structs = it->second;
  return structs[findIndexCleanStart(tr, structs, id.clock)];
}

Item* Doc::getItemCleanEnd(Transaction& tr, const Id& id) {
  auto it = clients_.find(id.client);
  if (it == clients_.end()) throw InvalidUpdateError("reference to a struct of an unknown client");
  auto& structs = it->second;
  const size_t index = findIndex(structs, id.clock);
  Item* s = structs[index];
  if (id.clock != s->id.clock + s->length - 1 && !s->isGc) {
    Item* right = splitItem(tr, s, id.clock - s->id.clock + 1);
    structs.insert(structs.begin() + static_cast<ptrdiff_t>(index) + 1, right);
  }
  return s;
}

void Doc::addStruct(Item* item) {
  auto& structs = clients_[item->id.client];
  if (!structs.empty()) {
    const Item* last = structs.back();
    if (last->id.clock + last->length != item->id.clock) throw InvalidUpdateError("struct clock gap");
  } else if (item->id.clock != 0) {
    throw InvalidUpdateError("first struct of a client does not start at clock 0");
  }
  structs.push_back(item);
}

void Doc::replaceWithGc(Item* item) {
  auto& structs = clients_[item->id.client];
  const size_t index = findIndex(structs, item->id.clock);
  Item* gc = newItem();
  gc->id = item->id;
  gc->length = item->length;
  gc->isGc = true;
  gc->deleted = true;
  structs[index] = gc;
  if (item->parent != nullptr && item->parent->marker == item) item->parent->marker = nullptr;
  freeItem(item);
}

void Doc::addChangedType(Transaction& tr, YType* type) {
  if (!type->isText()) return;  // only text observers have side effects (format cleanup)
  const Item* item = type->item;
  if (item == nullptr) {
    tr.changedText.insert(type);
    return;
  }
  const auto it = tr.beforeState.find(item->id.client);
  const uint64_t before = it == tr.beforeState.end() ? 0 : it->second;
  if (item->id.clock < before && !item->deleted) tr.changedText.insert(type);
}

void Doc::deleteItem(Transaction& tr, Item* item) {
  if (item->deleted || item->isGc) return;
  YType* parent = item->parent;
  parent->marker = nullptr;
  if (item->countable() && !item->parentSub) parent->length -= item->length;
  item->deleted = true;
  if (tr.deleteSet.clients.find(item->id.client) == tr.deleteSet.clients.end()) {
    tr.deleteOrder.push_back(item->id.client);
  }
  tr.deleteSet.add(item->id.client, item->id.clock, item->length);
  addChangedType(tr, parent);
  if (auto* ct = std::get_if<ContentType>(&item->content); ct != nullptr && ct->type != nullptr) {
    YType* type = ct->type;
    const auto beforeOf = [&](const Item* i) {
      const auto it = tr.beforeState.find(i->id.client);
      return it == tr.beforeState.end() ? uint64_t{0} : it->second;
    };
    for (Item* child = type->start; child != nullptr; child = child->right) {
      if (!child->deleted) {
        deleteItem(tr, child);
      } else if (child->id.clock < beforeOf(child)) {
        tr.mergeStructs.push_back(child->id);
      }
    }
    for (const auto& key : type->mapOrder) {
      Item* value = type->map[key];
      if (!value->deleted) {
        deleteItem(tr, value);
      } else if (value->id.clock < beforeOf(value)) {
        tr.mergeStructs.push_back(value->id);
      }
    }
    tr.changedText.erase(type);
  }
}

void Doc::transact(const std::function<void(Transaction&)>& fn, bool local) {
  if (transaction_ != nullptr) {
    fn(*transaction_);
    return;
  }
  auto tr = std::make_unique<Transaction>();
  tr->beforeState = stateVector();
  tr->local = local;
  transaction_ = tr.get();
  cleanups_.push_back(std::move(tr));
  const bool first = cleanups_.size() == 1;
  try {
    fn(*transaction_);
  } catch (...) {
    transaction_ = nullptr;
    if (first) {
      // leave the store consistent enough to encode what was integrated
      try {
        for (size_t i = 0; i < cleanups_.size(); ++i) cleanup(*cleanups_[i]);
      } catch (...) {
      }
      cleanups_.clear();
    }
    throw;
  }
  transaction_ = nullptr;
  if (first) {
    // cleanups may open further transactions (format cleanup); run them in order
    for (size_t i = 0; i < cleanups_.size(); ++i) cleanup(*cleanups_[i]);
    cleanups_.clear();
  }
}

}  // namespace docs::ydoc
