#pragma once
// Presence and cursors of one document (y-protocols awareness): clientID -> (clock,
// state JSON). Updates are applied by the rules of y-protocols and fanned out as they
// came; a connection's clients are removed when it leaves.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace docs_collab {

class Awareness {
 public:
  struct Entry {
    std::uint64_t clock = 0;
    std::string state;  // JSON text; "null" means removed
    std::chrono::steady_clock::time_point updated;
  };

  // No state is kept larger than this, whoever sends it.
  static constexpr std::size_t kMaxStateBytes = 64 * 1024;

  struct Applied {
    std::vector<std::uint64_t> clients;  // every client id of the entries accepted
    bool changed = false;                // some entry was taken (worth fanning out)
    std::size_t refused = 0;             // entries the filter (or kMaxStateBytes) dropped
    std::vector<std::uint8_t> update;    // the entries taken, as one update to fan out
  };
  // Decides, per entry, whether a sender may set this client's state (of this many bytes).
  using Filter = std::function<bool(std::uint64_t client, std::size_t stateBytes)>;
  // Applies an awareness update like y-protocols (a state is taken when its clock is
  // newer, or equal and null to remove it; an unknown client counts as clock 0). Entries
  // the filter refuses are dropped, as are states over kMaxStateBytes. Throws
  // ProtocolError if malformed, before changing anything.
  Applied apply(std::span<const std::uint8_t> update, const Filter& accept = {});
  // The update that removes these clients (state null, clock + 1), for broadcast; empty
  // if none of them is known.
  std::vector<std::uint8_t> remove(const std::set<std::uint64_t>& clients);
  // Every live state as one update (the answer to QueryAwareness); empty when none.
  std::vector<std::uint8_t> encodeAll() const;
  // The states of these clients as one update; empty when none is known.
  std::vector<std::uint8_t> encode(const std::set<std::uint64_t>& clients) const;
  bool empty() const;
  // Forgets states not renewed for `age` and returns their removal update (or empty).
  std::vector<std::uint8_t> expire(std::chrono::steady_clock::duration age);

 private:
  std::map<std::uint64_t, Entry> states_;
};

}  // namespace docs_collab
