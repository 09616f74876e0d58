#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "docs/ydoc/content.hpp"
#include "docs/ydoc/delete_set.hpp"
#include "docs/ydoc/id.hpp"
#include "docs/ydoc/update.hpp"

namespace docs::ydoc {

class Doc;
class YType;

// An integrated struct: an Item, or a GC placeholder (isGc) for collected content.
struct Item {
  Id id;
  uint64_t length = 0;
  bool isGc = false;
  bool deleted = false;
  bool keep = false;
  Item* left = nullptr;
  Item* right = nullptr;
  std::optional<Id> origin;
  std::optional<Id> rightOrigin;
  YType* parent = nullptr;
  const std::string* parentSub = nullptr;  // map key, interned by the Doc
  Content content;

  bool countable() const { return !isGc && contentCountable(content); }
  Id lastId() const { return {id.client, id.clock + length - 1}; }
  bool isDeleted() const { return isGc || deleted; }
};

// Types nested deeper than this are refused (recursive deletes and readers stay
// far from the stack limit); Tiptap documents are a few levels deep.
inline constexpr int kMaxTypeDepth = 512;

// A shared type (yjs AbstractType): a sequence of items plus a key -> item map.
class YType {
 public:
  TypeRef ref = TypeRef::XmlFragment;
  std::string name;      // XmlElement nodeName / XmlHook name
  std::string rootName;  // set for root types only
  Item* item = nullptr;  // the item holding this type; null for roots
  Item* start = nullptr;
  std::unordered_map<std::string, Item*> map;
  std::vector<std::string> mapOrder;  // JS Map insertion order of keys
  uint64_t length = 0;
  bool hasFormatting = false;
  int depth = 0;  // nesting level; roots are 0
  // Local text edits remember an item and the visible length before it, so the
  // next edit need not walk from the start (like yjs search markers). Any
  // integration or delete in this type drops it; merges move it.
  Item* marker = nullptr;
  uint64_t markerIndex = 0;
  Doc* doc = nullptr;

  bool isText() const { return ref == TypeRef::Text || ref == TypeRef::XmlText; }
  // Visible (not deleted) map entry, or nullptr.
  const Item* mapGet(const std::string& key) const;
  void mapSet(const std::string& key, Item* value);
};

struct Transaction {
  StateVector beforeState;
  DeleteSet deleteSet;
  std::vector<uint64_t> deleteOrder;  // clients in the order they got deletes (a JS Map's order)
  std::vector<Id> mergeStructs;
  std::unordered_set<YType*> changedText;
  bool local = true;
};

struct PendingStructs {
  StateVector missing;
  Bytes update;
};

// A Yjs document (yjs Doc + StructStore + transactions) with gc enabled.
class Doc {
 public:
  explicit Doc(uint64_t clientId = 0, bool gc = true);
  Doc(const Doc&) = delete;
  Doc& operator=(const Doc&) = delete;
  ~Doc();

  uint64_t clientId() const { return clientId_; }
  void setClientId(uint64_t id) { clientId_ = id; }

  // Applies a v1 update in one transaction (remote semantics, like Y.applyUpdate).
  void applyUpdate(std::span<const uint8_t> update);
  // Y.encodeStateAsUpdate(doc, sv): byte-identical with yjs.
  Bytes encodeStateAsUpdate(std::span<const uint8_t> encodedStateVector = {}) const;
  StateVector stateVector() const;
  Bytes encodeStateVector() const;
  // The delete set of the whole store (Y.snapshot(doc).ds).
  DeleteSet storeDeleteSet() const;
  // Y.snapshotContainsUpdate(Y.snapshot(doc), update).
  bool containsUpdate(std::span<const uint8_t> update) const;
  bool hasPending() const { return pendingStructs_.has_value() || pendingDs_.has_value(); }

  // Root type by name (created on first use, like doc.get(name)).
  YType& root(const std::string& name, TypeRef ref = TypeRef::XmlFragment);
  const YType* findRoot(const std::string& name) const;
  const std::map<std::string, YType*>& roots() const { return share_; }

  // Runs `fn` inside a transaction (nested calls join the open one).
  void transact(const std::function<void(Transaction&)>& fn, bool local = true);

  // Local edits (produce the update yjs would produce for the same calls).
  // Inserts new content at `index` (countable units) of a sequence type.
  Item* insertContent(Transaction& tr, YType& parent, uint64_t index, Content content);
  // Inserts after `left` (nullptr = at start) without index lookup.
  Item* insertAfter(Transaction& tr, YType& parent, Item* left, Content content);
  void setMapValue(Transaction& tr, YType& parent, const std::string& key, Content content);
  void deleteRange(Transaction& tr, YType& parent, uint64_t index, uint64_t length);
  void deleteItem(Transaction& tr, Item* item);
  // Splits the item containing `id` so that an item starts at `id` (getItemCleanStart).
  Item* splitAt(Transaction& tr, const Id& id) { return getItemCleanStart(tr, id); }

  // Store access used by readers and tests.
  const std::map<uint64_t, std::vector<Item*>>& clients() const { return clients_; }
  uint64_t getState(uint64_t client) const;

 private:
  friend class Integrator;
  friend class TransactionCleanup;

  Item* newItem();
  void freeItem(Item* item);
  YType* newType(TypeRef ref, std::string name, Item* owner);
  // Stable storage for map keys shared by every item of that key.
  const std::string* intern(const std::string& key);

  size_t findIndex(const std::vector<Item*>& structs, uint64_t clock) const;
  Item* getItem(const Id& id) const;
  size_t findIndexCleanStart(Transaction& tr, std::vector<Item*>& structs, uint64_t clock);
  Item* getItemCleanStart(Transaction& tr, const Id& id);
  Item* getItemCleanEnd(Transaction& tr, const Id& id);
  Item* splitItem(Transaction& tr, Item* left, uint64_t diff);
  void addStruct(Item* item);
  void replaceWithGc(Item* item);

  void integrate(Transaction& tr, Item* item, uint64_t offset);
  void gcItem(Item* item, bool parentGcd);
  void addChangedType(Transaction& tr, YType* type);
  void readAndIntegrate(Transaction& tr, std::span<const uint8_t> update);
  std::optional<Bytes> applyDeleteSet(Transaction& tr, const DeleteSet& ds);
  void cleanup(Transaction& tr);
  void cleanupFormatting(Transaction& tr);
  void encodeStructs(Encoder& enc, const StateVector& target) const;

  uint64_t clientId_;
  bool gc_;
  std::map<uint64_t, std::vector<Item*>> clients_;
  std::deque<Item> itemPool_;
  std::vector<Item*> freeItems_;
  std::deque<YType> types_;
  std::unordered_set<std::string> keys_;
  std::map<std::string, YType*> share_;
  std::optional<PendingStructs> pendingStructs_;
  std::optional<Bytes> pendingDs_;
  Transaction* transaction_ = nullptr;
  std::vector<std::unique_ptr<Transaction>> cleanups_;
};

// Random 32-bit client id (what yjs uses for new documents).
uint64_t randomClientId();

}  // namespace docs::ydoc
