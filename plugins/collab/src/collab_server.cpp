// The server's lifecycle, its rooms, access and the DocumentEditor service. The rest of
// CollabServer is defined by job: room_writer.cpp (group commit and fan-out),
// compactor.cpp (loading rooms and folding logs into content), peer_relay.cpp (other
// nodes holding the same page).
#include "collab_server.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/ydoc/error.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "byte_views.hpp"
#include "collab_session.hpp"
#include "protocol.hpp"

namespace docs_collab {

using docs::Context;
using docs::HttpError;
using docs::Principal;
using docs::Request;
using docs::Role;
using docs::WebSocketConnection;
using docs::WebSocketSession;

std::optional<std::int64_t> positiveId(std::string_view text) {
  if (text.empty() || text.size() > 18 || text.front() == '0') return std::nullopt;
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

std::optional<std::pair<std::int64_t, std::int64_t>> parseRoomName(std::string_view name) {
  auto separator = name.find("__");
  if (separator == std::string_view::npos) return std::nullopt;
  auto project = positiveId(name.substr(0, separator));
  auto page = positiveId(name.substr(separator + 2));
  if (!project || !page) return std::nullopt;
  return std::make_pair(*project, *page);
}

namespace {
// Names this process in the log rows it writes (a restart is another writer too).
std::string randomNodeName() {
  std::random_device random;
  char name[17];
  std::snprintf(name, sizeof name, "%08x%08x", random(), random());
  return name;
}
}  // namespace

CollabServer::CollabServer(Context& context, const CollabServices& services, CollabLimits limits)
    : context_(context), services_(services), limits_(limits), node_(randomNodeName()), history_(context.db()) {}

CollabServer::~CollabServer() { stop(); }

void CollabServer::start() {
  auto& metrics = context_.metrics();
  metrics.gaugeFunction("docsd_collab_rooms_open", "Documents open for editing on this node.", [this] {
    std::lock_guard lock(roomsMutex_);
    return static_cast<double>(rooms_.size());
  });
  updatesApplied_ =
      &metrics.counter("docsd_collab_updates_applied_total", "Document updates stored (group commits included).");
  commitBatch_ = &metrics.histogram("docsd_collab_commit_batch_updates", "Updates stored by one group commit.", {},
                                    {1, 2, 5, 10, 20, 50, 100, 200, 512});
  commitSeconds_ = &metrics.histogram("docsd_collab_commit_seconds", "Time one group commit took to store its updates.",
                                      {}, {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1});
  relayLag_ = &metrics.histogram(
      "docsd_collab_relay_lag_seconds",
      "Time from another node's commit of updates to their arrival in this node's room (the nodes' clocks included).",
      {}, {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5});
  writerThread_ = std::thread([this] { writerLoop(); });
  fanoutThread_ = std::thread([this] { fanoutLoop(); });
  compactor_ = std::thread([this] { compactorLoop(); });
}

void CollabServer::stop() {
  {
    std::lock_guard lock(compactorMutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  compactorWake_.notify_all();
  if (compactor_.joinable()) compactor_.join();
  {
    std::lock_guard lock(writesMutex_);
    writerStopping_ = true;
  }
  writesWake_.notify_all();
  if (writerThread_.joinable()) writerThread_.join();  // drains what is queued first
  {
    std::lock_guard lock(fanoutMutex_);
    fanoutStopping_ = true;
  }
  fanoutWake_.notify_all();
  if (fanoutThread_.joinable()) fanoutThread_.join();  // then what is committed
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(roomsMutex_);
    for (auto& [name, room] : rooms_) rooms.push_back(room);
  }
  for (auto& room : rooms) compact(room);
}

std::unique_ptr<WebSocketSession> CollabServer::accept(const Request&,
                                                       std::shared_ptr<WebSocketConnection> connection) {
  return std::make_unique<CollabSession>(*this, std::move(connection));
}

std::optional<Principal> CollabServer::authenticate(std::string_view token) {
  if (token.empty()) return std::nullopt;
  return services_.authenticator->authenticateToken(token);
}

RoomAccess CollabServer::decideAccess(std::int64_t projectId, std::int64_t pageId,
                                      const std::optional<Principal>& principal) {
  RoomAccess access;
  if (!principal) {
    access.reason = "Invalid or expired token";
    return access;
  }
  try {
    Role role = services_.access->require(projectId, principal, Role::Read);
    auto page = services_.pages->find(pageId);
    if (!page || page->projectId != projectId) {
      access.reason = "Not found";
      return access;
    }
    access.allowed = true;
    // A read-only access token reads whatever its owner's role.
    access.readOnly = role < Role::Write || principal->readOnly;
  } catch (const HttpError& error) {
    access.reason = error.status() == 404 ? "Not found" : "Forbidden";
  }
  return access;
}

std::pair<std::shared_ptr<Room>, std::unique_lock<std::mutex>> CollabServer::lockedRoom(std::int64_t projectId,
                                                                                        std::int64_t pageId) {
  std::string name = std::to_string(projectId) + "__" + std::to_string(pageId);
  while (true) {
    std::shared_ptr<Room> room;
    {
      std::lock_guard lock(roomsMutex_);
      auto& slot = rooms_[name];
      if (!slot) slot = std::make_shared<Room>(projectId, pageId, name);
      room = slot;
    }
    std::unique_lock lock(room->mutex);
    if (room->retired) {
      lock.unlock();
      std::lock_guard roomsLock(roomsMutex_);
      auto found = rooms_.find(name);
      if (found != rooms_.end() && found->second == room) rooms_.erase(found);
      continue;
    }
    if (!room->doc) {
      load(*room);
      announce(projectId, pageId, true, false);
    }
    return {room, std::move(lock)};
  }
}

bool CollabServer::applyUpdateAs(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) {
  {
    std::lock_guard lock(writesMutex_);
    if (writerStopping_) throw EditorStopping(pageId);  // before a room is loaded for it
  }
  auto page = services_.pages->find(pageId);
  if (!page) return false;
  auto committed = std::make_shared<std::promise<bool>>();
  auto durable = committed->get_future();
  auto [room, lock] = lockedRoom(page->projectId, pageId);
  auto result = write(room, bytesOf(update), Writer{nullptr, "", userId, committed});
  lock.unlock();  // the group commit needs the room
  if (result == WriteResult::Stopping) throw EditorStopping(pageId);
  if (result == WriteResult::Invalid) throw std::invalid_argument("the update does not decode or apply");
  if (result == WriteResult::NothingNew) return true;
  if (!durable.get()) throw std::runtime_error("the update could not be stored");
  bool alone = false;
  {
    std::lock_guard roomLock(room->mutex);
    alone = room->members.empty();
  }
  // Nobody has the page open: store it now, so readers of the content see it.
  if (alone && !compact(room)) throw std::runtime_error("the page content could not be stored");
  return true;
}

void CollabServer::onContentReplaced(std::int64_t projectId, std::int64_t pageId) {
  auto room = loadedRoom(projectId, pageId);
  if (!room) {
    // Nobody edits it here: fold the logged edit now, so the history has it (the first
    // node to get here folds, the others find the log empty).
    flush(pageId);
    return;
  }
  absorbStored(room);
  compactorWake_.notify_one();
}

void CollabServer::absorbStored(const std::shared_ptr<Room>& room) {
  auto stored = services_.documents->load(room->pageId);
  if (!stored) return;
  std::lock_guard lock(room->mutex);
  if (!room->doc || room->retired) return;
  try {
    auto before = room->doc->encodeStateVector();
    if (!stored->content.empty()) room->doc->applyUpdate(bytesOf(stored->content));
    std::int64_t newest = 0;
    for (const auto& entry : stored->log) {
      room->doc->applyUpdate(bytesOf(entry.bytes));
      newest = std::max(newest, entry.id);
    }
    // The room now holds every logged edit: its next fold stores and drops them (with
    // their authors, for the history).
    if (newest > room->appliedLogId) {
      if (!room->dirty()) room->firstUnfolded = std::chrono::steady_clock::now();
      room->lastChange = std::chrono::steady_clock::now();
      room->appliedLogId = newest;
    }
    auto news = room->doc->encodeStateAsUpdate(before);
    if (news.size() > 2) broadcast(*room, [&](const std::string& to) { return syncUpdate(to, news); });
  } catch (const docs::ydoc::YdocError& error) {
    context_.logger().error("the stored document does not apply to its room; reloading it",
                            {{"page_id", room->pageId}, {"error", error.what()}});
    resetRoom(*room, "Storage changed");
  }
}

std::optional<std::string> CollabServer::currentState(std::int64_t pageId) {
  auto page = services_.pages->find(pageId);
  if (!page) return std::nullopt;
  auto [room, lock] = lockedRoom(page->projectId, pageId);
  auto state = room->doc->encodeStateAsUpdate();
  return std::string(textOf(state));
}

bool CollabServer::claimAwarenessClient(Room& room, std::uint64_t claimant, std::uint64_t client,
                                        std::size_t maxStates) {
  auto self = room.members.find(claimant);
  if (self == room.members.end()) return false;
  auto& mine = self->second.awarenessClients;
  if (mine.count(client)) return true;
  if (mine.size() >= maxStates) return false;
  for (const auto& [node, clients] : room.peers)
    if (clients.count(client)) return false;
  for (auto& [memberId, member] : room.members) {
    if (memberId == claimant || !member.awarenessClients.count(client)) continue;
    bool samePerson = member.principal && self->second.principal && !member.principal->anonymous() &&
                      member.principal->userId == self->second.principal->userId;
    if (!samePerson) return false;
    member.awarenessClients.erase(client);  // moves to the new socket
    break;
  }
  mine.insert(client);
  return true;
}

void CollabServer::removeMember(Room& room, std::uint64_t memberId) {
  auto found = room.members.find(memberId);
  if (found == room.members.end()) return;
  auto clients = std::move(found->second.awarenessClients);
  room.members.erase(found);
  auto removal = room.awareness.remove(clients);
  if (removal.empty()) return;
  broadcast(room, [&](const std::string& to) { return awareness(to, removal); });
  relayAwareness(room, removal);
}

void CollabServer::revalidateProject(std::int64_t projectId) {
  std::vector<std::shared_ptr<Room>> matching;
  {
    std::lock_guard lock(roomsMutex_);
    for (auto& [name, room] : rooms_)
      if (room->projectId == projectId) matching.push_back(room);
  }
  for (auto& room : matching) {
    std::lock_guard lock(room->mutex);
    std::vector<std::uint64_t> denied;
    for (auto& [memberId, member] : room->members) {
      auto access = decideAccess(room->projectId, room->pageId, member.principal);
      if (!access.allowed) {
        member.connection->sendBinary(textOf(permissionDenied(member.address, access.reason)));
        denied.push_back(memberId);
      } else if (access.readOnly != member.readOnly) {
        member.readOnly = access.readOnly;
        member.connection->sendBinary(textOf(authenticated(member.address, access.readOnly)));
      }
    }
    for (auto memberId : denied) removeMember(*room, memberId);
  }
}

bool CollabServer::registerUserConnection(const std::string& userId) {
  std::lock_guard lock(usersMutex_);
  int& count = connectionsPerUser_[userId];
  if (count >= limits_.maxConnectionsPerUser) return false;
  ++count;
  return true;
}

void CollabServer::unregisterUserConnection(const std::string& userId) {
  std::lock_guard lock(usersMutex_);
  auto found = connectionsPerUser_.find(userId);
  if (found != connectionsPerUser_.end() && --found->second <= 0) connectionsPerUser_.erase(found);
}

void CollabServer::trackSession(const std::string& sessionId, const std::shared_ptr<WebSocketConnection>& connection) {
  std::lock_guard lock(usersMutex_);
  auto range = connectionsBySession_.equal_range(sessionId);
  for (auto it = range.first; it != range.second;) {
    auto live = it->second.lock();
    if (!live || !live->open()) it = connectionsBySession_.erase(it);
    else if (live == connection) return;
    else ++it;
  }
  connectionsBySession_.emplace(sessionId, connection);
}

void CollabServer::onSessionRevoked(const std::string& sessionId) {
  std::vector<std::shared_ptr<WebSocketConnection>> toClose;
  {
    std::lock_guard lock(usersMutex_);
    auto range = connectionsBySession_.equal_range(sessionId);
    for (auto it = range.first; it != range.second; ++it)
      if (auto live = it->second.lock()) toClose.push_back(live);
    connectionsBySession_.erase(range.first, range.second);
  }
  for (auto& connection : toClose) connection->close(kCloseUnauthorized, "Session ended");
}

void CollabServer::onPageDeleted(std::int64_t pageId) {
  std::vector<std::shared_ptr<Room>> matching;
  {
    std::lock_guard lock(roomsMutex_);
    for (auto& [name, room] : rooms_)
      if (room->pageId == pageId) matching.push_back(room);
  }
  for (auto& room : matching) {
    std::lock_guard lock(room->mutex);
    std::vector<std::uint64_t> ids;
    for (auto& [memberId, member] : room->members) {
      member.connection->sendBinary(textOf(closeDocument(member.address, "The page was deleted")));
      ids.push_back(memberId);
    }
    for (auto memberId : ids) removeMember(*room, memberId);
    room->compactedLogId = room->appliedLogId;  // nothing left to store
  }
  history_.removePage(pageId);  // pages dropped the page's log with it
}

void CollabServer::onProjectDeleted(std::int64_t projectId) { revalidateProject(projectId); }

void CollabServer::broadcastStateless(std::int64_t pageId, std::string_view payload) {
  std::vector<std::shared_ptr<Room>> matching;
  {
    std::lock_guard lock(roomsMutex_);
    for (auto& [name, room] : rooms_)
      if (room->pageId == pageId) matching.push_back(room);
  }
  for (auto& room : matching) {
    std::lock_guard lock(room->mutex);
    for (auto& [memberId, member] : room->members)
      member.connection->sendBinary(textOf(stateless(member.address, payload)));
  }
}

std::shared_ptr<Room> CollabServer::loadedRoom(std::int64_t projectId, std::int64_t pageId) {
  std::lock_guard lock(roomsMutex_);
  auto found = rooms_.find(std::to_string(projectId) + "__" + std::to_string(pageId));
  if (found == rooms_.end()) return nullptr;
  return found->second;
}
}  // namespace docs_collab
