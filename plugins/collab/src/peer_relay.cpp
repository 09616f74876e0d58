// CollabServer between nodes holding the same page open: announcing rooms, relaying
// committed updates and presence, and applying what the other nodes relay (relay.hpp;
// docs/collab-protocol.md, "Several nodes on one page").
#include <docs/context.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/services/documents.hpp>
#include <docs/ydoc/error.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <set>

#include "byte_views.hpp"
#include "collab_server.hpp"
#include "protocol.hpp"
#include "relay.hpp"

namespace docs_collab {

void CollabServer::announce(std::int64_t projectId, std::int64_t pageId, bool open, bool reply) {
  context_.events().publish(relay::kRoomTopic,
                            relay::encode(relay::RoomNotice{{projectId, pageId, node_}, open, reply}));
}

void CollabServer::relayAwareness(const Room& room, std::span<const std::uint8_t> update) {
  if (room.peers.empty()) return;
  publishAwareness(room.projectId, room.pageId, update);
}

void CollabServer::publishAwareness(std::int64_t projectId, std::int64_t pageId, std::span<const std::uint8_t> update) {
  if (update.empty() || update.size() > relay::kMaxAwarenessBytes) return;
  context_.events().publish(relay::kAwarenessTopic, relay::encode(relay::AwarenessNotice{{projectId, pageId, node_},
                                                                                         std::string(textOf(update))}));
}

void CollabServer::onPeerRoom(const nlohmann::json& payload) {
  auto notice = relay::decodeRoom(payload);
  if (!notice || notice->origin.node == node_) return;
  const auto& origin = notice->origin;
  auto room = loadedRoom(origin.projectId, origin.pageId);
  if (!room) return;
  std::int64_t committed = 0;
  std::vector<std::uint8_t> presence;
  {
    std::lock_guard lock(room->mutex);
    if (!room->doc || room->retired) return;
    if (!notice->open) {
      auto found = room->peers.find(origin.node);
      if (found == room->peers.end()) return;
      auto removal = room->awareness.remove(found->second);
      room->peers.erase(found);
      if (!removal.empty()) broadcast(*room, [&](const std::string& to) { return awareness(to, removal); });
      return;
    }
    room->peers.try_emplace(origin.node);
    committed = room->appliedLogId;
    // The new peer learns who is here now (presence sent before it was known went nowhere).
    std::set<std::uint64_t> local;
    for (const auto& [memberId, member] : room->members)
      local.insert(member.awarenessClients.begin(), member.awarenessClients.end());
    presence = room->awareness.encode(local);
  }
  publishAwareness(room->projectId, room->pageId, presence);
  // A node that opens a page has read the log; it learns who holds the page from their
  // answers. Until then nobody relays to it and it relays to nobody, so on each answer
  // it reads what the answering node committed, and points that node at what it
  // committed itself (fanned out before it knew to relay, so all at or below `committed`).
  if (!notice->reply) return announce(room->projectId, room->pageId, true, true);
  std::vector<std::string> updates;
  for (auto& row : services_.documents->readNode(room->pageId, origin.node, 0, INT64_MAX))
    updates.push_back(std::move(row.bytes));
  if (!updates.empty()) applyFromPeer(room, origin.node, updates);
  if (committed > 0) {
    relay::UpdatesNotice mine{{room->projectId, room->pageId, node_}, {}, 1, committed, 0};
    context_.events().publish(relay::kUpdatesTopic, relay::encode(mine));
  }
}

void CollabServer::onPeerUpdates(const nlohmann::json& payload) {
  auto notice = relay::decodeUpdates(payload);
  if (!notice || notice->origin.node == node_) return;
  auto room = loadedRoom(notice->origin.projectId, notice->origin.pageId);
  if (!room) return;
  auto updates = std::move(notice->updates);
  if (updates.empty())  // too big to carry: read from the log (gone if already folded)
    for (auto& row : services_.documents->readNode(room->pageId, notice->origin.node, notice->fromId, notice->toId))
      updates.push_back(std::move(row.bytes));
  applyFromPeer(room, notice->origin.node, updates);
  if (notice->sentMs > 0 && relayLag_) {
    const auto nowMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    relayLag_->observe(static_cast<double>(std::max<std::int64_t>(0, nowMs - notice->sentMs)) / 1000.0);
  }
}

void CollabServer::applyFromPeer(const std::shared_ptr<Room>& room, const std::string& node,
                                 const std::vector<std::string>& updates) {
  std::lock_guard lock(room->mutex);
  if (!room->doc || room->retired) return;
  room->peers.try_emplace(node);  // it holds the page: relay to it too
  for (const auto& update : updates) {
    try {
      if (room->doc->containsUpdate(bytesOf(update))) continue;
      room->doc->applyUpdate(bytesOf(update));
    } catch (const docs::ydoc::YdocError& error) {
      // Logged and accepted there, so it must apply: rebuild from storage to be safe.
      context_.logger().error("a relayed update does not apply; reloading the room",
                              {{"page_id", room->pageId}, {"node", node}, {"error", error.what()}});
      try {
        load(*room);
      } catch (const std::exception& reload) {
        context_.logger().error("room reload failed", {{"page_id", room->pageId}, {"error", reload.what()}});
        resetRoom(*room, "Storage failed");
      }
      return;
    }
    broadcast(*room, [&](const std::string& to) { return syncUpdate(to, bytesOf(update)); });
  }
}

void CollabServer::onPeerAwareness(const nlohmann::json& payload) {
  auto notice = relay::decodeAwareness(payload);
  if (!notice || notice->origin.node == node_) return;
  auto room = loadedRoom(notice->origin.projectId, notice->origin.pageId);
  if (!room) return;
  std::lock_guard lock(room->mutex);
  if (!room->doc || room->retired) return;
  try {
    auto applied = room->awareness.apply(bytesOf(notice->update));
    room->peers[notice->origin.node].insert(applied.clients.begin(), applied.clients.end());
    if (applied.changed)
      broadcast(*room, [&](const std::string& to) { return awareness(to, bytesOf(notice->update)); });
  } catch (const ProtocolError& error) {
    context_.logger().warn("malformed relayed awareness", {{"page_id", room->pageId}, {"error", error.what()}});
  }
}
}  // namespace docs_collab
