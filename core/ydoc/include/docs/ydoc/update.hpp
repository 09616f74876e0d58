#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "docs/ydoc/content.hpp"
#include "docs/ydoc/delete_set.hpp"
#include "docs/ydoc/id.hpp"
#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc {

enum class StructKind : uint8_t { Gc, Skip, Item };

// Where a decoded item says it lives when it carries no origin.
struct ParentRef {
  enum class Kind : uint8_t { None, Root, Item } kind = Kind::None;
  std::string rootName;
  Id item;
};

// A struct as it appears in an update, before integration into a document.
struct Struct {
  StructKind kind = StructKind::Item;
  Id id;
  uint64_t length = 0;
  std::optional<Id> origin;
  std::optional<Id> rightOrigin;
  ParentRef parent;
  std::optional<std::string> parentSub;
  Content content;
};

// A fully decoded v1 update: structs in the order they were encoded (client
// groups one after another), then the delete set.
struct DecodedUpdate {
  std::vector<Struct> structs;
  DeleteSet deleteSet;
};

inline constexpr uint8_t kInfoGc = 0;
inline constexpr uint8_t kInfoSkip = 10;

// Reads one struct (GC, Skip or Item) of `client` at `clock`.
Struct readStruct(Decoder& dec, uint64_t client, uint64_t clock);
// Writes a struct skipping its first `offset` clock units (yjs Item.write).
void writeStruct(Encoder& enc, const Struct& s, uint64_t offset);
// Returns the struct starting `diff` units into `s`, shortening `s` (yjs sliceStruct).
Struct sliceStruct(Struct& s, uint64_t diff);

DecodedUpdate decodeUpdate(std::span<const uint8_t> update);
// Re-encodes a decoded update (same layout rules as yjs' lazy writer).
Bytes encodeUpdate(const DecodedUpdate& update);

// Writes structs grouped by client, in the order given (yjs LazyStructWriter).
class StructWriter {
 public:
  void write(const Struct& s, uint64_t offset);
  // Emits the struct section into `out`.
  void finish(Encoder& out);

 private:
  struct Group {
    uint64_t written;
    Encoder rest;
  };
  void flush();

  std::vector<Group> groups_;
  Encoder current_;
  uint64_t written_ = 0;
  uint64_t currentClient_ = 0;
};

// Update algebra without a document (yjs src/utils/updates.js).
Bytes mergeUpdates(const std::vector<std::span<const uint8_t>>& updates);
Bytes diffUpdate(std::span<const uint8_t> update, std::span<const uint8_t> stateVector);
Bytes encodeStateVectorFromUpdate(std::span<const uint8_t> update);
StateVector stateVectorFromUpdate(std::span<const uint8_t> update);
// True when applying `update` to a document with this state vector and delete
// set would change nothing (yjs snapshotContainsUpdate).
bool snapshotContainsUpdate(const StateVector& sv, const DeleteSet& ds, std::span<const uint8_t> update);

}  // namespace docs::ydoc
