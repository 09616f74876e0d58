#pragma once
// Messages between nodes (docsd processes sharing one database) that hold the same page
// open, carried by the event bus (PostgreSQL NOTIFY). A node announces a room it opens
// or closes; the nodes holding it answer, and from then on each relays its committed
// updates and its editors' awareness to the others, so editors on different nodes see
// each other live. Nothing here is needed for durability: every update is in the log.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace docs_collab::relay {

inline constexpr std::string_view kRoomTopic = "collab.room";
inline constexpr std::string_view kUpdatesTopic = "collab.updates";
inline constexpr std::string_view kAwarenessTopic = "collab.awareness";

// What every relay message names.
struct Origin {
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;
  std::string node;  // the sender's page_updates.node
};

// A node opened (or closed) a page; `reply` marks the answer of a node that holds it.
struct RoomNotice {
  Origin origin;
  bool open = true;
  bool reply = false;
};

// Updates a node committed, inline while they fit in one notification, else the range
// of its log ids for the receivers to read.
struct UpdatesNotice {
  Origin origin;
  std::vector<std::string> updates;
  std::int64_t fromId = 0;
  std::int64_t toId = 0;
  // When the sender published it (Unix ms), for docsd_collab_relay_lag_seconds; 0 for a
  // catch-up notice, which is not live.
  std::int64_t sentMs = 0;
};

// An awareness update of the sender's editors (y-protocols encoding).
struct AwarenessNotice {
  Origin origin;
  std::string update;
};

// Characters of hex-encoded updates one notification may carry inline (NOTIFY payloads
// stop just under 8000 bytes, and the envelope needs room).
inline constexpr std::size_t kMaxInlineChars = 7000;

nlohmann::json encode(const RoomNotice& notice);
nlohmann::json encode(const UpdatesNotice& notice);
nlohmann::json encode(const AwarenessNotice& notice);
// nullopt for anything malformed (a message from an older or foreign node is ignored).
std::optional<RoomNotice> decodeRoom(const nlohmann::json& payload);
std::optional<UpdatesNotice> decodeUpdates(const nlohmann::json& payload);
std::optional<AwarenessNotice> decodeAwareness(const nlohmann::json& payload);

// The notice for one room's part of a committed batch; `ids` in the order of `updates`.
UpdatesNotice updatesNotice(Origin origin, const std::vector<std::string_view>& updates,
                            const std::vector<std::int64_t>& ids);
// Awareness updates bigger than this are not relayed (the editors' own clients renew
// their states every 15 s, and a smaller one may follow).
inline constexpr std::size_t kMaxAwarenessBytes = kMaxInlineChars / 2 - 8;

}  // namespace docs_collab::relay
