#include "docs/ydoc/update.hpp"

#include <algorithm>

#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace {

constexpr uint8_t kBitOrigin = 0x80;
constexpr uint8_t kBitRightOrigin = 0x40;
constexpr uint8_t kBitParentSub = 0x20;
constexpr uint8_t kContentMask = 0x1F;

Id readId(Decoder& dec) {
  Id id;
  id.client = dec.readVarUint();
  id.clock = dec.readVarUint();
  return id;
}

void writeId(Encoder& enc, const Id& id) {
  enc.writeVarUint(id.client);
  enc.writeVarUint(id.clock);
}

}  // namespace

Struct readStruct(Decoder& dec, uint64_t client, uint64_t clock) {
  Struct s;
  s.id = {client, clock};
  const uint8_t info = dec.readUint8();
  const uint8_t ref = info & kContentMask;
  if (ref == kInfoGc) {
    s.kind = StructKind::Gc;
    s.length = dec.readVarUint();
  } else if (ref == kInfoSkip) {
    s.kind = StructKind::Skip;
    s.length = dec.readVarUint();
  } else {
    s.kind = StructKind::Item;
    if (info & kBitOrigin) s.origin = readId(dec);
    if (info & kBitRightOrigin) s.rightOrigin = readId(dec);
    const bool cantCopyParentInfo = (info & (kBitOrigin | kBitRightOrigin)) == 0;
    if (cantCopyParentInfo) {
      if (dec.readVarUint() == 1) {
        s.parent.kind = ParentRef::Kind::Root;
        s.parent.rootName = dec.readVarString();
      } else {
        s.parent.kind = ParentRef::Kind::Item;
        s.parent.item = readId(dec);
      }
      if (info & kBitParentSub) s.parentSub = dec.readVarString();
    }
    s.content = readContent(dec, ref);
    s.length = contentLength(s.content);
  }
  // yjs never encodes empty structs; refusing them keeps every loop making progress
  if (s.length == 0) throw DecodeError("struct of length 0");
  // clocks are JS numbers: refuse anything that would leave the safe range
  if (s.length > (uint64_t{1} << 53) || clock > (uint64_t{1} << 53) - s.length) {
    throw DecodeError("struct clock out of range");
  }
  return s;
}

void writeStruct(Encoder& enc, const Struct& s, uint64_t offset) {
  if (s.kind == StructKind::Gc || s.kind == StructKind::Skip) {
    enc.writeUint8(s.kind == StructKind::Gc ? kInfoGc : kInfoSkip);
    enc.writeVarUint(s.length - offset);
    return;
  }
  const std::optional<Id> origin = offset > 0 ? std::optional<Id>(Id{s.id.client, s.id.clock + offset - 1}) : s.origin;
  const uint8_t info = static_cast<uint8_t>((contentRef(s.content) & kContentMask) | (origin ? kBitOrigin : 0) |
                                            (s.rightOrigin ? kBitRightOrigin : 0) | (s.parentSub ? kBitParentSub : 0));
  enc.writeUint8(info);
  if (origin) writeId(enc, *origin);
  if (s.rightOrigin) writeId(enc, *s.rightOrigin);
  if (!origin && !s.rightOrigin) {
    if (s.parent.kind == ParentRef::Kind::Root) {
      enc.writeVarUint(1);
      enc.writeVarString(s.parent.rootName);
    } else if (s.parent.kind == ParentRef::Kind::Item) {
      enc.writeVarUint(0);
      writeId(enc, s.parent.item);
    } else {
      throw InvalidUpdateError("item without origin has no parent");
    }
    if (s.parentSub) enc.writeVarString(*s.parentSub);
  }
  writeContent(enc, s.content, offset);
}

Struct sliceStruct(Struct& s, uint64_t diff) {
  Struct right;
  right.kind = s.kind;
  right.id = {s.id.client, s.id.clock + diff};
  if (s.kind != StructKind::Item) {
    right.length = s.length - diff;
    return right;
  }
  right.origin = Id{s.id.client, s.id.clock + diff - 1};
  right.rightOrigin = s.rightOrigin;
  right.parent = s.parent;
  right.parentSub = s.parentSub;
  right.content = spliceContent(s.content, diff);
  right.length = contentLength(right.content);
  s.length = contentLength(s.content);
  return right;
}

DecodedUpdate decodeUpdate(std::span<const uint8_t> update) {
  Decoder dec(update);
  DecodedUpdate out;
  const uint64_t numClients = dec.readCount();
  for (uint64_t i = 0; i < numClients; ++i) {
    const uint64_t numStructs = dec.readCount();
    const uint64_t client = dec.readVarUint();
    uint64_t clock = dec.readVarUint();
    out.structs.reserve(out.structs.size() + numStructs);
    for (uint64_t j = 0; j < numStructs; ++j) {
      out.structs.push_back(readStruct(dec, client, clock));
      clock += out.structs.back().length;
    }
  }
  out.deleteSet = readDeleteSet(dec);
  return out;
}

void StructWriter::flush() {
  if (written_ > 0) {
    groups_.push_back({written_, std::move(current_)});
    current_ = Encoder();
    written_ = 0;
  }
}

void StructWriter::write(const Struct& s, uint64_t offset) {
  if (written_ > 0 && currentClient_ != s.id.client) flush();
  if (written_ == 0) {
    currentClient_ = s.id.client;
    current_.writeVarUint(s.id.client);
    current_.writeVarUint(s.id.clock + offset);
  }
  writeStruct(current_, s, offset);
  ++written_;
}

void StructWriter::finish(Encoder& out) {
  flush();
  out.writeVarUint(groups_.size());
  for (const auto& g : groups_) {
    out.writeVarUint(g.written);
    out.writeRaw(g.rest.bytes());
  }
  groups_.clear();
}

Bytes encodeUpdate(const DecodedUpdate& update) {
  Encoder enc;
  StructWriter writer;
  for (const auto& s : update.structs) writer.write(s, 0);
  writer.finish(enc);
  writeDeleteSet(enc, update.deleteSet);
  return enc.take();
}

namespace {

// Cursor over one decoded update, optionally skipping Skip structs
// (yjs LazyStructReader with filterSkips).
struct StructCursor {
  std::vector<Struct>* structs;
  size_t index = 0;
  bool filterSkips;

  StructCursor(std::vector<Struct>* s, bool filter) : structs(s), filterSkips(filter) { settle(); }
  void settle() {
    while (filterSkips && index < structs->size() && (*structs)[index].kind == StructKind::Skip) ++index;
  }
  Struct* curr() { return index < structs->size() ? &(*structs)[index] : nullptr; }
  Struct* next() {
    ++index;
    settle();
    return curr();
  }
};

// GC and Skip merge with their own kind; items never do before integration.
bool mergeStructs(Struct& left, const Struct& right) {
  if (left.kind == StructKind::Item || left.kind != right.kind) return false;
  left.length += right.length;
  return true;
}

}  // namespace

Bytes mergeUpdates(const std::vector<std::span<const uint8_t>>& updates) {
  if (updates.size() == 1) return Bytes(updates[0].begin(), updates[0].end());
  std::vector<DecodedUpdate> decoded;
  decoded.reserve(updates.size());
  for (const auto& u : updates) decoded.push_back(decodeUpdate(u));
  std::vector<StructCursor> cursors;
  for (auto& d : decoded) cursors.emplace_back(&d.structs, true);

  Encoder out;
  StructWriter writer;
  std::optional<Struct> currWrite;  // the struct being built, written lazily
  uint64_t currOffset = 0;
  // Persistent like yjs' decoder array: the previous order breaks ties.
  std::vector<StructCursor*> live;
  for (auto& c : cursors) live.push_back(&c);

  while (true) {
    std::erase_if(live, [](StructCursor* c) { return c->curr() == nullptr; });
    if (live.empty()) break;
    // highest client first, then lowest clock; non-skips before skips
    std::stable_sort(live.begin(), live.end(), [](StructCursor* a, StructCursor* b) {
      const Struct& x = *a->curr();
      const Struct& y = *b->curr();
      if (x.id.client != y.id.client) return x.id.client > y.id.client;
      if (x.id.clock != y.id.clock) return x.id.clock < y.id.clock;
      const bool xs = x.kind == StructKind::Skip;
      const bool ys = y.kind == StructKind::Skip;
      return !xs && ys;
    });
    StructCursor& dec = *live.front();
    const uint64_t firstClient = dec.curr()->id.client;
    if (currWrite) {
      Struct* curr = dec.curr();
      bool iterated = false;
      while (curr != nullptr && curr->id.clock + curr->length <= currWrite->id.clock + currWrite->length &&
             curr->id.client >= currWrite->id.client) {
        curr = dec.next();
        iterated = true;
      }
      if (curr == nullptr || curr->id.client != firstClient ||
          (iterated && curr->id.clock > currWrite->id.clock + currWrite->length)) {
        continue;
      }
      if (firstClient != currWrite->id.client) {
        writer.write(*currWrite, currOffset);
        currWrite = *curr;
        currOffset = 0;
        dec.next();
      } else if (currWrite->id.clock + currWrite->length < curr->id.clock) {
        if (currWrite->kind == StructKind::Skip) {
          currWrite->length = curr->id.clock + curr->length - currWrite->id.clock;
        } else {
          writer.write(*currWrite, currOffset);
          const uint64_t diff = curr->id.clock - currWrite->id.clock - currWrite->length;
          Struct skip;
          skip.kind = StructKind::Skip;
          skip.id = {firstClient, currWrite->id.clock + currWrite->length};
          skip.length = diff;
          currWrite = std::move(skip);
          currOffset = 0;
        }
      } else {
        const uint64_t diff = currWrite->id.clock + currWrite->length - curr->id.clock;
        Struct sliced;
        Struct* candidate = curr;
        if (diff > 0) {
          if (currWrite->kind == StructKind::Skip) {
            currWrite->length -= diff;
          } else {
            sliced = sliceStruct(*curr, diff);
            candidate = &sliced;
          }
        }
        if (!mergeStructs(*currWrite, *candidate)) {
          writer.write(*currWrite, currOffset);
          currWrite = std::move(*candidate);
          currOffset = 0;
          dec.next();
        }
      }
    } else {
      currWrite = *dec.curr();
      currOffset = 0;
      dec.next();
    }
    for (Struct* next = dec.curr();
         next != nullptr && next->id.client == firstClient &&
         next->id.clock == currWrite->id.clock + currWrite->length && next->kind != StructKind::Skip;
         next = dec.next()) {
      writer.write(*currWrite, currOffset);
      currWrite = *next;
      currOffset = 0;
    }
  }
  if (currWrite) writer.write(*currWrite, currOffset);
  writer.finish(out);

  std::vector<DeleteSet> sets;
  sets.reserve(decoded.size());
  for (auto& d : decoded) sets.push_back(std::move(d.deleteSet));
  writeDeleteSet(out, mergeDeleteSets(sets));
  return out.take();
}

Bytes diffUpdate(std::span<const uint8_t> update, std::span<const uint8_t> stateVector) {
  const StateVector state = decodeStateVector(stateVector);
  DecodedUpdate decoded = decodeUpdate(update);
  Encoder out;
  StructWriter writer;
  StructCursor reader(&decoded.structs, false);
  while (Struct* curr = reader.curr()) {
    const uint64_t client = curr->id.client;
    const auto it = state.find(client);
    const uint64_t svClock = it == state.end() ? 0 : it->second;
    if (curr->kind == StructKind::Skip) {
      reader.next();
      continue;
    }
    if (curr->id.clock + curr->length > svClock) {
      writer.write(*curr, svClock > curr->id.clock ? svClock - curr->id.clock : 0);
      Struct* next = reader.next();
      while (next != nullptr && next->id.client == client) {
        writer.write(*next, 0);
        next = reader.next();
      }
    } else {
      Struct* next = reader.curr();
      while (next != nullptr && next->id.client == client && next->id.clock + next->length <= svClock) {
        next = reader.next();
      }
    }
  }
  writer.finish(out);
  writeDeleteSet(out, decoded.deleteSet);
  return out.take();
}

namespace {

// Pairs (client, clock) in update order, as encodeStateVectorFromUpdate emits them.
std::vector<std::pair<uint64_t, uint64_t>> stateFromUpdate(std::span<const uint8_t> update) {
  DecodedUpdate decoded = decodeUpdate(update);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (decoded.structs.empty()) return out;
  const Struct* first = &decoded.structs.front();
  uint64_t currClient = first->id.client;
  bool stopCounting = first->id.clock != 0;
  uint64_t currClock = stopCounting ? 0 : first->id.clock + first->length;
  for (const Struct& curr : decoded.structs) {
    if (currClient != curr.id.client) {
      if (currClock != 0) out.emplace_back(currClient, currClock);
      currClient = curr.id.client;
      currClock = 0;
      stopCounting = curr.id.clock != 0;
    }
    if (curr.kind == StructKind::Skip) stopCounting = true;
    if (!stopCounting) currClock = curr.id.clock + curr.length;
  }
  if (currClock != 0) out.emplace_back(currClient, currClock);
  return out;
}

}  // namespace

Bytes encodeStateVectorFromUpdate(std::span<const uint8_t> update) {
  const auto pairs = stateFromUpdate(update);
  Encoder enc;
  enc.writeVarUint(pairs.size());
  for (const auto& [client, clock] : pairs) {
    enc.writeVarUint(client);
    enc.writeVarUint(clock);
  }
  return enc.take();
}

StateVector stateVectorFromUpdate(std::span<const uint8_t> update) {
  StateVector sv;
  for (const auto& [client, clock] : stateFromUpdate(update)) sv[client] = clock;
  return sv;
}

bool snapshotContainsUpdate(const StateVector& sv, const DeleteSet& ds, std::span<const uint8_t> update) {
  DecodedUpdate decoded = decodeUpdate(update);
  for (const Struct& s : decoded.structs) {
    const auto it = sv.find(s.id.client);
    const uint64_t clock = it == sv.end() ? 0 : it->second;
    if (clock < s.id.clock + s.length) return false;
  }
  DeleteSet normalized = ds;
  normalized.sortAndMerge();
  const DeleteSet merged = mergeDeleteSets({ds, decoded.deleteSet});
  return normalized == merged;
}

}  // namespace docs::ydoc
