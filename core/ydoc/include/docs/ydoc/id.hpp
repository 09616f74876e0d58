#pragma once

#include <cstdint>
#include <map>
#include <span>

#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc {

// A struct's identity: the client that created it and its logical clock.
struct Id {
  uint64_t client = 0;
  uint64_t clock = 0;
  bool operator==(const Id&) const = default;
};

// client -> next expected clock. std::map keeps iteration deterministic.
using StateVector = std::map<uint64_t, uint64_t>;

// Clients are written in descending order, as yjs does.
Bytes encodeStateVector(const StateVector& sv);
void writeStateVector(Encoder& enc, const StateVector& sv);
StateVector decodeStateVector(std::span<const uint8_t> bytes);
StateVector readStateVector(Decoder& dec);

}  // namespace docs::ydoc
