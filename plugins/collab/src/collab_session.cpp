#include "collab_session.hpp"

#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>

#include <algorithm>
#include <utility>

#include "byte_views.hpp"
#include "collab_server.hpp"

namespace docs_collab {

using docs::Principal;
using docs::WebSocketConnection;

CollabSession::CollabSession(CollabServer& server, std::shared_ptr<WebSocketConnection> connection)
    : server_(server),
      connection_(std::move(connection)),
      tokens_(server.limits().messageBurst),
      refilledAt_(Clock::now()) {}

CollabSession::~CollabSession() { leaveAll(); }

void CollabSession::onMessage(std::string_view data, bool binary) {
  if (closed_) return;
  if (!binary) return fail(kCloseInvalidData, "Only binary frames are accepted");
  if (data.size() == 1 && static_cast<std::uint8_t>(data[0]) == 9) {  // Ping
    connection_->sendBinary(std::string_view("\x0a", 1));
    return;
  }
  if (data.size() == 1 && static_cast<std::uint8_t>(data[0]) == 10) return;  // Pong
  if (!takeToken()) return fail(kClosePolicy, "Too many messages");
  try {
    Incoming in = parseFrame(bytesOf(data));
    dispatch(in, data);
  } catch (const ProtocolError& error) {
    fail(kCloseInvalidData, error.what());
  } catch (const docs::ydoc::YdocError& error) {
    fail(kCloseInvalidData, std::string("Invalid document data: ") + error.what());
  }
}

void CollabSession::onClose(std::uint16_t) {
  closed_ = true;
  leaveAll();
}

void CollabSession::fail(std::uint16_t code, const std::string& reason) {
  if (closed_) return;
  closed_ = true;
  leaveAll();
  connection_->close(code, reason.substr(0, 120));
}

bool CollabSession::takeToken() {
  auto now = Clock::now();
  double elapsed = std::chrono::duration<double>(now - refilledAt_).count();
  refilledAt_ = now;
  const auto& limits = server_.limits();
  tokens_ = std::min(limits.messageBurst, tokens_ + elapsed * limits.messagesPerSecond);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

void CollabSession::dispatch(const Incoming& in, std::string_view frame) {
  auto found = documents_.find(in.address);
  if (found == documents_.end()) {
    if (documents_.size() >= server_.limits().maxDocumentsPerConnection)
      return fail(kClosePolicy, "Too many documents on one connection");
    found = documents_.emplace(in.address, DocumentState{}).first;
  }
  DocumentState& doc = found->second;
  if (in.type == MessageType::Auth) return authenticate(in.address, doc, parseAuthToken(in.payload));
  switch (doc.phase) {
    case Phase::Denied: return;  // forgotten until the client authenticates again
    case Phase::Pending: {
      // A socket nobody has vouched for yet queues no more than one small frame's worth.
      std::size_t maxBytes = server_.limits().maxQueuedBytes;
      if (!vouched_ && server_.limits().maxUnauthenticatedFrameBytes > 0)
        maxBytes = std::min(maxBytes, server_.limits().maxUnauthenticatedFrameBytes);
      if (queuedMessages_ + 1 > server_.limits().maxQueuedMessages || queuedBytes_ + frame.size() > maxBytes)
        return fail(kClosePolicy, "Too much sent before authentication");
      queuedMessages_ += 1;
      queuedBytes_ += frame.size();
      doc.queue.emplace_back(frame);
      return;
    }
    case Phase::Open: return handle(in, doc);
  }
}

void CollabSession::deny(const std::string& address, DocumentState& doc, const std::string& reason) {
  leave(doc);
  dropQueue(doc);
  doc.phase = Phase::Denied;
  connection_->sendBinary(textOf(permissionDenied(address, reason)));
}

void CollabSession::authenticate(const std::string& address, DocumentState& doc, const std::string& token) {
  auto ids = parseRoomName(documentName(address));
  std::optional<Principal> principal = server_.authenticate(token);
  RoomAccess access;
  if (principal && !vouched_) {
    // A valid token: the socket may send full-size messages and is past its deadline
    // (whatever this document's answer; the per-user cap counts it from here on).
    vouched_ = true;
    connection_->markAuthenticated();
  }
  if (!ids) access.reason = "Invalid document name";
  else if (!principal) access.reason = "Invalid or expired token";
  else access = server_.decideAccess(ids->first, ids->second, principal);
  if (access.allowed && !userCounted_) {
    if (!server_.registerUserConnection(principal->userId)) {
      access.allowed = false;
      access.reason = "Too many connections";
    } else {
      userCounted_ = true;
      countedUser_ = principal->userId;
    }
  }
  if (!access.allowed) return deny(address, doc, access.reason);
  server_.trackSession(principal->sessionId, connection_);
  doc.principal = principal;
  doc.checkedAt = Clock::now();
  if (doc.phase == Phase::Open) {  // a token refresh: the scope may have changed
    auto locked = lockRoom(doc);
    if (!locked.member) return;
    locked.member->principal = principal;
    locked.member->readOnly = access.readOnly;
    connection_->sendBinary(textOf(authenticated(address, access.readOnly)));
    return;
  }
  {
    auto [room, lock] = server_.lockedRoom(ids->first, ids->second);
    doc.room = room;
    doc.memberId = server_.nextMemberId();
    room->members[doc.memberId] = Member{address, connection_, principal, access.readOnly, {}};
    doc.phase = Phase::Open;
    connection_->sendBinary(textOf(authenticated(address, access.readOnly)));
    auto states = room->awareness.encodeAll();
    if (!states.empty()) connection_->sendBinary(textOf(awareness(address, states)));
  }
  std::vector<std::string> queued = std::move(doc.queue);
  dropQueue(doc);
  for (const auto& frame : queued) {
    if (closed_ || doc.phase != Phase::Open) return;
    handle(parseFrame(bytesOf(frame)), doc);
  }
}

void CollabSession::dropQueue(DocumentState& doc) {
  for (const auto& frame : doc.queue) {
    queuedMessages_ -= 1;
    queuedBytes_ -= frame.size();
  }
  doc.queue.clear();
}

// Locks the document's room. No member when the room was reset under us (the socket is
// being closed by the server) or the member was removed by a permission change (the
// client was told); the document is then forgotten.
CollabSession::Locked CollabSession::lockRoom(DocumentState& doc) {
  Locked locked{std::unique_lock(doc.room->mutex), nullptr};
  auto found = doc.room->members.find(doc.memberId);
  if (doc.room->doc && !doc.room->retired && found != doc.room->members.end()) {
    locked.member = &found->second;
    return locked;
  }
  locked.lock.unlock();
  doc.room.reset();
  doc.phase = Phase::Denied;
  return locked;
}

// A writer's permission is checked again every accessRecheck (and at once after an
// rbac event, by the server); a demoted writer is told its new scope.
void CollabSession::recheckAccess(const std::string& address, DocumentState& doc) {
  if (Clock::now() - doc.checkedAt < server_.limits().accessRecheck) return;
  auto access = server_.decideAccess(doc.room->projectId, doc.room->pageId, doc.principal);
  doc.checkedAt = Clock::now();
  auto locked = lockRoom(doc);
  if (!locked.member) return;
  if (!access.allowed) {
    server_.removeMember(*doc.room, doc.memberId);
    locked.lock.unlock();
    doc.room.reset();
    doc.phase = Phase::Denied;
    connection_->sendBinary(textOf(permissionDenied(address, access.reason)));
    return;
  }
  if (access.readOnly != locked.member->readOnly) {
    locked.member->readOnly = access.readOnly;
    connection_->sendBinary(textOf(authenticated(address, access.readOnly)));
  }
}

void CollabSession::handleWrite(const std::string& address, DocumentState& doc, const SyncMessage& sync) {
  recheckAccess(address, doc);
  if (doc.phase != Phase::Open) return;
  auto locked = lockRoom(doc);
  if (!locked.member) return;
  if (locked.member->readOnly) {
    // Never applied. A step 2 that brings nothing new counts as applied.
    bool nothingNew = sync.step == SyncStep::Step2 && doc.room->doc->containsUpdate(sync.data);
    connection_->sendBinary(textOf(syncStatus(address, nothingNew)));
    return;
  }
  CollabServer::Writer writer{connection_, address, std::nullopt, nullptr};
  if (doc.principal) writer.userId = positiveId(doc.principal->userId);
  auto room = doc.room;
  auto result = server_.write(room, sync.data, std::move(writer));
  // A queued update is acknowledged by the group commit; one with nothing new at once.
  if (result == CollabServer::WriteResult::NothingNew) connection_->sendBinary(textOf(syncStatus(address, true)));
  locked.lock.unlock();
  if (result == CollabServer::WriteResult::Invalid) fail(kCloseInvalidData, "The update does not apply");
  if (result == CollabServer::WriteResult::Stopping) fail(kCloseResetConnection, "Server stopping");
}

void CollabSession::handle(const Incoming& in, DocumentState& doc) {
  const std::string& address = in.address;
  switch (in.type) {
    case MessageType::Sync:
    case MessageType::SyncReply: {
      SyncMessage sync = parseSync(in.payload);
      if (sync.step != SyncStep::Step1) return handleWrite(address, doc, sync);
      auto locked = lockRoom(doc);
      if (!locked.member) return;
      auto update = doc.room->doc->encodeStateAsUpdate(sync.data);
      if (in.type == MessageType::Sync)
        connection_->sendBinary(textOf(syncStep1(address, doc.room->doc->encodeStateVector())));
      connection_->sendBinary(textOf(syncStep2(address, update)));
      return;
    }
    case MessageType::Awareness: {
      docs::ydoc::Decoder dec(in.payload);
      auto update = dec.readVarUint8Array();
      auto locked = lockRoom(doc);
      if (!locked.member) return;
      // A connection sets only the states of client ids it announced itself (the first
      // time it sent one no one else holds), a few of them, each small; the rest of the
      // update is dropped and never fanned out.
      const auto& limits = server_.limits();
      auto applied = doc.room->awareness.apply(update, [&](std::uint64_t client, std::size_t bytes) {
        return bytes <= limits.maxAwarenessStateBytes &&
               CollabServer::claimAwarenessClient(*doc.room, doc.memberId, client, limits.maxAwarenessStates);
      });
      if (!applied.changed) return;
      server_.broadcast(*doc.room, [&](const std::string& to) { return awareness(to, applied.update); });
      server_.relayAwareness(*doc.room, applied.update);
      return;
    }
    case MessageType::QueryAwareness: {
      auto locked = lockRoom(doc);
      if (!locked.member) return;
      auto states = doc.room->awareness.encodeAll();
      if (!states.empty()) connection_->sendBinary(textOf(awareness(address, states)));
      return;
    }
    case MessageType::Stateless: return;  // no stateless hooks yet
    case MessageType::Close: {
      leave(doc);
      documents_.erase(address);
      return;
    }
    case MessageType::BroadcastStateless:
    case MessageType::SyncStatus:
    case MessageType::Auth: throw ProtocolError("a client may not send this message type");
  }
}

void CollabSession::leave(DocumentState& doc) {
  if (!doc.room) return;
  {
    std::lock_guard lock(doc.room->mutex);
    server_.removeMember(*doc.room, doc.memberId);
  }
  doc.room.reset();
  doc.phase = Phase::Pending;
}

void CollabSession::leaveAll() {
  for (auto& [address, doc] : documents_) leave(doc);
  documents_.clear();
  if (userCounted_) {
    server_.unregisterUserConnection(countedUser_);
    userCounted_ = false;
  }
}

}  // namespace docs_collab
