#include "awareness.hpp"

#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>

#include "protocol.hpp"

namespace docs_collab {

using docs::ydoc::Decoder;
using docs::ydoc::Encoder;

Awareness::Applied Awareness::apply(std::span<const std::uint8_t> update, const Filter& accept) {
  Applied applied;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> entries;
  try {
    Decoder dec(update);
    std::uint64_t count = dec.readCount();
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint64_t client = dec.readVarUint();
      std::uint64_t clock = dec.readVarUint();
      std::string state = dec.readVarString();
      entries.emplace_back(client, clock, std::move(state));
    }
  } catch (const docs::ydoc::DecodeError& error) {
    throw ProtocolError(std::string("malformed awareness update: ") + error.what());
  }
  // Parsed whole before anything changes, so a bad update changes nothing.
  auto now = std::chrono::steady_clock::now();
  std::vector<std::tuple<std::uint64_t, std::uint64_t, const std::string*>> taken;
  for (auto& [client, clock, state] : entries) {
    if (state.size() > kMaxStateBytes || (accept && !accept(client, state.size()))) {
      applied.refused += 1;
      continue;
    }
    applied.clients.push_back(client);
    auto found = states_.find(client);
    bool isNull = state == "null";
    std::uint64_t current = found == states_.end() ? 0 : found->second.clock;
    if (clock > current || (clock == current && isNull && found != states_.end())) {
      applied.changed = true;
      taken.emplace_back(client, clock, &state);
      if (isNull) {
        if (found != states_.end()) states_.erase(found);
      } else {
        states_[client] = {clock, state, now};
      }
    }
  }
  if (!taken.empty()) {
    Encoder enc;
    enc.writeVarUint(taken.size());
    for (const auto& [client, clock, state] : taken) {
      enc.writeVarUint(client);
      enc.writeVarUint(clock);
      enc.writeVarString(*state);
    }
    applied.update = enc.take();
  }
  return applied;
}

std::vector<std::uint8_t> Awareness::remove(const std::set<std::uint64_t>& clients) {
  Encoder enc;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> removed;
  for (auto client : clients) {
    auto found = states_.find(client);
    if (found == states_.end()) continue;
    removed.emplace_back(client, found->second.clock + 1);
    states_.erase(found);
  }
  if (removed.empty()) return {};
  enc.writeVarUint(removed.size());
  for (auto [client, clock] : removed) {
    enc.writeVarUint(client);
    enc.writeVarUint(clock);
    enc.writeVarString("null");
  }
  return enc.take();
}

std::vector<std::uint8_t> Awareness::encodeAll() const {
  if (states_.empty()) return {};
  Encoder enc;
  enc.writeVarUint(states_.size());
  for (const auto& [client, entry] : states_) {
    enc.writeVarUint(client);
    enc.writeVarUint(entry.clock);
    enc.writeVarString(entry.state);
  }
  return enc.take();
}

std::vector<std::uint8_t> Awareness::encode(const std::set<std::uint64_t>& clients) const {
  std::vector<std::pair<std::uint64_t, const Entry*>> known;
  for (auto client : clients)
    if (auto found = states_.find(client); found != states_.end()) known.emplace_back(client, &found->second);
  if (known.empty()) return {};
  Encoder enc;
  enc.writeVarUint(known.size());
  for (const auto& [client, entry] : known) {
    enc.writeVarUint(client);
    enc.writeVarUint(entry->clock);
    enc.writeVarString(entry->state);
  }
  return enc.take();
}

bool Awareness::empty() const { return states_.empty(); }

std::vector<std::uint8_t> Awareness::expire(std::chrono::steady_clock::duration age) {
  auto cutoff = std::chrono::steady_clock::now() - age;
  std::set<std::uint64_t> stale;
  for (const auto& [client, entry] : states_)
    if (entry.updated < cutoff) stale.insert(client);
  return remove(stale);
}

}  // namespace docs_collab
