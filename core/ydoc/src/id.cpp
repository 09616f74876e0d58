#include "docs/ydoc/id.hpp"

namespace docs::ydoc {

void writeStateVector(Encoder& enc, const StateVector& sv) {
  enc.writeVarUint(sv.size());
  for (auto it = sv.rbegin(); it != sv.rend(); ++it) {
    enc.writeVarUint(it->first);
    enc.writeVarUint(it->second);
  }
}

Bytes encodeStateVector(const StateVector& sv) {
  Encoder enc;
  writeStateVector(enc, sv);
  return enc.take();
}

StateVector readStateVector(Decoder& dec) {
  StateVector sv;
  const uint64_t n = dec.readCount();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t client = dec.readVarUint();
    sv[client] = dec.readVarUint();
  }
  return sv;
}

StateVector decodeStateVector(std::span<const uint8_t> bytes) {
  Decoder dec(bytes);
  return readStateVector(dec);
}

}  // namespace docs::ydoc
