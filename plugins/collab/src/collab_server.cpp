#include "collab_server.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/authenticator.hpp>
#include <docs/services/pages.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>
#include <docs/ydoc/update.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <set>

#include "protocol.hpp"
#include "relay.hpp"

namespace docs::collab {
namespace {

using Clock = std::chrono::steady_clock;

std::span<const std::uint8_t> bytesOf(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}
std::string_view textOf(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::optional<std::int64_t> positiveId(std::string_view text) {
  if (text.empty() || text.size() > 18 || text.front() == '0') return std::nullopt;
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

// One socket: any number of documents, each authenticated on its own.
class CollabSession final : public WebSocketSession {
 public:
  CollabSession(CollabServer& server, std::shared_ptr<WebSocketConnection> connection)
      : server_(server), connection_(std::move(connection)), tokens_(server.limits().messageBurst),
        refilledAt_(Clock::now()) {}

  ~CollabSession() override { leaveAll(); }

  void onMessage(std::string_view data, bool binary) override {
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
    } catch (const ydoc::YdocError& error) {
      fail(kCloseInvalidData, std::string("Invalid document data: ") + error.what());
    }
  }

  void onClose(std::uint16_t) override {
    closed_ = true;
    leaveAll();
  }

 private:
  enum class Phase { Pending, Open, Denied };
  struct DocumentState {
    Phase phase = Phase::Pending;
    std::vector<std::string> queue;  // frames received before authentication
    std::shared_ptr<Room> room;
    std::uint64_t memberId = 0;
    std::optional<Principal> principal;
    Clock::time_point checkedAt{};
  };
  // The locked room and this document's member entry in it.
  struct Locked {
    std::unique_lock<std::mutex> lock;
    Member* member = nullptr;
  };

  void fail(std::uint16_t code, const std::string& reason) {
    if (closed_) return;
    closed_ = true;
    leaveAll();
    connection_->close(code, reason.substr(0, 120));
  }

  bool takeToken() {
    auto now = Clock::now();
    double elapsed = std::chrono::duration<double>(now - refilledAt_).count();
    refilledAt_ = now;
    const auto& limits = server_.limits();
    tokens_ = std::min(limits.messageBurst, tokens_ + elapsed * limits.messagesPerSecond);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  void dispatch(const Incoming& in, std::string_view frame) {
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

  void deny(const std::string& address, DocumentState& doc, const std::string& reason) {
    leave(doc);
    dropQueue(doc);
    doc.phase = Phase::Denied;
    connection_->sendBinary(textOf(permissionDenied(address, reason)));
  }

  void authenticate(const std::string& address, DocumentState& doc, const std::string& token) {
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

  void dropQueue(DocumentState& doc) {
    for (const auto& frame : doc.queue) {
      queuedMessages_ -= 1;
      queuedBytes_ -= frame.size();
    }
    doc.queue.clear();
  }

  // Locks the document's room. No member when the room was reset under us (the socket is
  // being closed by the server) or the member was removed by a permission change (the
  // client was told); the document is then forgotten.
  Locked lockRoom(DocumentState& doc) {
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
  void recheckAccess(const std::string& address, DocumentState& doc) {
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

  void handleWrite(const std::string& address, DocumentState& doc, const SyncMessage& sync) {
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
  }

  void handle(const Incoming& in, DocumentState& doc) {
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
        ydoc::Decoder dec(in.payload);
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

  void leave(DocumentState& doc) {
    if (!doc.room) return;
    {
      std::lock_guard lock(doc.room->mutex);
      server_.removeMember(*doc.room, doc.memberId);
    }
    doc.room.reset();
    doc.phase = Phase::Pending;
  }

  void leaveAll() {
    for (auto& [address, doc] : documents_) leave(doc);
    documents_.clear();
    if (userCounted_) {
      server_.unregisterUserConnection(countedUser_);
      userCounted_ = false;
    }
  }

  CollabServer& server_;
  std::shared_ptr<WebSocketConnection> connection_;
  std::map<std::string, DocumentState> documents_;
  std::size_t queuedMessages_ = 0;
  std::size_t queuedBytes_ = 0;
  double tokens_;
  Clock::time_point refilledAt_;
  bool closed_ = false;
  bool userCounted_ = false;
  bool vouched_ = false;  // a valid token was presented on this socket
  std::string countedUser_;
};

}  // namespace

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

// What a page's content was when this process last read or wrote it.
std::size_t contentFingerprint(std::string_view content) { return std::hash<std::string_view>{}(content); }
}  // namespace

CollabServer::CollabServer(Context& context, CollabLimits limits)
    : context_(context), limits_(limits), log_(context.db(), randomNodeName()), history_(context.db()) {}

CollabServer::~CollabServer() { stop(); }

void CollabServer::start() {
  auto& metrics = context_.metrics();
  metrics.gaugeFunction("docsd_collab_rooms_open", "Documents open for editing on this node.", [this] {
    std::lock_guard lock(roomsMutex_);
    return static_cast<double>(rooms_.size());
  });
  updatesApplied_ = &metrics.counter("docsd_collab_updates_applied_total", "Document updates stored (group commits included).");
  commitBatch_ = &metrics.histogram("docsd_collab_commit_batch_updates", "Updates stored by one group commit.", {},
                                    {1, 2, 5, 10, 20, 50, 100, 200, 512});
  commitSeconds_ = &metrics.histogram("docsd_collab_commit_seconds", "Time one group commit took to store its updates.", {},
                                      {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1});
  relayLag_ = &metrics.histogram("docsd_collab_relay_lag_seconds",
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

std::unique_ptr<WebSocketSession> CollabServer::accept(const Request&, std::shared_ptr<WebSocketConnection> connection) {
  return std::make_unique<CollabSession>(*this, std::move(connection));
}

std::optional<Principal> CollabServer::authenticate(std::string_view token) {
  auto* authenticator = context_.findService<Authenticator>();
  if (!authenticator || token.empty()) return std::nullopt;
  return authenticator->authenticateToken(token);
}

RoomAccess CollabServer::decideAccess(std::int64_t projectId, std::int64_t pageId, const std::optional<Principal>& principal) {
  RoomAccess access;
  auto* pages = context_.findService<Pages>();
  auto* control = context_.findService<AccessControl>();
  if (!pages || !control) {
    access.reason = "Collaboration is not available";
    return access;
  }
  if (!principal) {
    access.reason = "Invalid or expired token";
    return access;
  }
  try {
    Role role = control->require(projectId, principal, Role::Read);
    auto page = pages->find(pageId);
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

void CollabServer::load(Room& room) {
  auto doc = std::make_unique<ydoc::Doc>();
  auto* pages = context_.findService<Pages>();
  room.storedFingerprint = contentFingerprint("");
  if (pages) {
    if (auto content = pages->content(room.pageId); content && !content->empty()) {
      doc->applyUpdate(bytesOf(*content));
      room.storedFingerprint = contentFingerprint(*content);
    }
  }
  std::int64_t lastId = 0;
  for (const auto& entry : log_.read(room.pageId)) {
    try {
      doc->applyUpdate(bytesOf(entry.bytes));
    } catch (const ydoc::YdocError& error) {
      context_.logger().error("skipping a log entry that does not apply",
                              {{"page_id", room.pageId}, {"log_id", entry.id}, {"error", error.what()}});
    }
    lastId = entry.id;
  }
  room.doc = std::move(doc);
  room.appliedLogId = lastId;
  room.compactedLogId = 0;
  if (lastId > 0) room.firstUnfolded = room.lastChange = Clock::now();
  else room.compactedLogId = room.appliedLogId;
}

CollabServer::WriteResult CollabServer::write(const std::shared_ptr<Room>& roomPtr, std::span<const std::uint8_t> update,
                                              Writer writer) {
  Room& room = *roomPtr;
  // Malformed bytes throw here, before the document is touched.
  try {
    if (room.doc->containsUpdate(update)) return WriteResult::NothingNew;
  } catch (const ydoc::YdocError&) {
    return WriteResult::Invalid;
  }
  try {
    room.doc->applyUpdate(update);
  } catch (const ydoc::YdocError& error) {
    // Part of it may be in the document: rebuild the room from what is stored.
    context_.logger().warn("update refused", {{"page_id", room.pageId}, {"error", error.what()}});
    try {
      load(room);
    } catch (const std::exception& reload) {
      context_.logger().error("room reload failed", {{"page_id", room.pageId}, {"error", reload.what()}});
      resetRoom(room, "Storage failed");
    }
    return WriteResult::Invalid;
  }
  room.pendingWrites += 1;
  {
    std::lock_guard lock(writesMutex_);
    writes_.push_back({roomPtr, std::string(textOf(update)), std::move(writer)});
  }
  writesWake_.notify_one();
  return WriteResult::Queued;
}

void CollabServer::resetRoom(Room& room, const char* reason) {
  for (auto& [memberId, member] : room.members) member.connection->close(kCloseResetConnection, reason);
  room.members.clear();
  room.doc.reset();
  room.retired = true;  // the next joiner loads a fresh room from storage
}

void CollabServer::writerLoop() {
  constexpr std::size_t kMaxBatch = 512;
  constexpr std::size_t kMaxBatchBytes = 4 << 20;
  while (true) {
    std::vector<PendingWrite> batch;
    {
      std::unique_lock lock(writesMutex_);
      writesWake_.wait(lock, [&] { return !writes_.empty() || writerStopping_; });
      if (writes_.empty()) return;  // stopping, and everything is written
      std::size_t bytes = 0;
      while (!writes_.empty() && batch.size() < kMaxBatch && (batch.empty() || bytes + writes_.front().update.size() <= kMaxBatchBytes)) {
        bytes += writes_.front().update.size();
        batch.push_back(std::move(writes_.front()));
        writes_.pop_front();
      }
    }
    // One row per room and writer: the updates are packed side by side, not merged (a Yjs
    // merge cost docsd more than the rows cost PostgreSQL; docs/benchmarks.md).
    std::vector<UpdateLog::Entry> entries;
    std::vector<std::size_t> rowOf(batch.size());
    {
      std::map<std::pair<Room*, std::optional<std::int64_t>>, std::size_t> rowFor;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const auto& write = batch[i];
        auto [slot, added] = rowFor.try_emplace({write.room.get(), write.writer.userId}, entries.size());
        if (added) entries.push_back({write.room->pageId, {}, write.writer.userId});
        entries[slot->second].updates.push_back(write.update);
        rowOf[i] = slot->second;
      }
    }
    std::vector<std::int64_t> ids;
    try {
      const auto commitStarted = std::chrono::steady_clock::now();
      auto rowIds = log_.appendBatch(entries);
      if (commitSeconds_) commitSeconds_->observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - commitStarted).count());
      if (commitBatch_) commitBatch_->observe(static_cast<double>(batch.size()));
      if (updatesApplied_) updatesApplied_->add(static_cast<double>(batch.size()));
      ids.reserve(batch.size());
      for (auto row : rowOf) ids.push_back(rowIds[row]);
    } catch (const std::exception& error) {
      // Applied in memory but not durable: nobody may see it. Everyone resynchronises.
      context_.logger().error("updates not stored; resetting their rooms", {{"updates", batch.size()}, {"error", error.what()}});
      for (auto& write : batch) {
        {
          std::lock_guard lock(write.room->mutex);
          write.room->pendingWrites -= 1;
          if (!write.room->retired) resetRoom(*write.room, "Storage failed");
        }
        if (write.writer.committed) write.writer.committed->set_value(false);
      }
      continue;
    }
    // Fanned out by the other thread while this one commits the next batch: the commit's
    // wait (an fsync) overlaps the sending. A few batches at most wait between the two.
    {
      std::unique_lock lock(fanoutMutex_);
      fanoutRoom_.wait(lock, [&] { return committed_.size() < kMaxCommittedBatches; });
      committed_.push_back({std::move(batch), std::move(ids)});
    }
    fanoutWake_.notify_one();
  }
}

void CollabServer::fanoutLoop() {
  while (true) {
    CommittedBatch done;
    {
      std::unique_lock lock(fanoutMutex_);
      fanoutWake_.wait(lock, [&] { return !committed_.empty() || fanoutStopping_; });
      if (committed_.empty()) return;  // stopping, and everything is sent
      done = std::move(committed_.front());
      committed_.pop_front();
    }
    fanoutRoom_.notify_one();
    fanOut(done.writes, done.ids);
  }
}

void CollabServer::fanOut(std::vector<PendingWrite>& batch, const std::vector<std::int64_t>& ids) {
  auto now = Clock::now();
  // Per room, in order: each member gets every update of the batch (and the
  // acknowledgements of its own) in one write.
  std::map<Room*, std::vector<std::size_t>> byRoom;
  for (std::size_t i = 0; i < batch.size(); ++i) byRoom[batch[i].room.get()].push_back(i);
  std::vector<relay::UpdatesNotice> relayed;  // to other nodes holding these pages
  for (auto& [roomPointer, indexes] : byRoom) {
    Room& room = *roomPointer;
    std::lock_guard lock(room.mutex);
    room.pendingWrites -= static_cast<int>(indexes.size());
    if (!room.dirty()) room.firstUnfolded = now;
    room.lastChange = now;
    for (auto i : indexes) room.appliedLogId = std::max(room.appliedLogId, ids[i]);
    if (room.retired || !room.doc) continue;
    if (!room.peers.empty()) {
      std::vector<std::string_view> updates;
      std::vector<std::int64_t> updateIds;
      for (auto i : indexes) {
        updates.push_back(batch[i].update);
        updateIds.push_back(ids[i]);
      }
      relayed.push_back(relay::updatesNotice({room.projectId, room.pageId, log_.node()}, updates, updateIds));
    }
    std::map<std::string, std::vector<Bytes>> updateFrames;  // by member address
    std::vector<bool> ackSent(indexes.size(), false);
    for (auto& [memberId, member] : room.members) {
      auto& frames = updateFrames[member.address];
      if (frames.empty())
        for (auto i : indexes) frames.push_back(syncUpdate(member.address, bytesOf(batch[i].update)));
      std::vector<Bytes> acks;
      std::vector<std::string_view> messages;
      acks.reserve(indexes.size());
      for (std::size_t k = 0; k < indexes.size(); ++k) {
        const auto& writer = batch[indexes[k]].writer;
        if (writer.connection == member.connection && writer.address == member.address) {
          acks.push_back(syncStatus(member.address, true));
          messages.push_back(textOf(acks.back()));
          ackSent[k] = true;
        }
        messages.push_back(textOf(frames[k]));
      }
      member.connection->sendBinaryBatch(messages);
    }
    // A writer that left the room meanwhile still learns its update is stored.
    for (std::size_t k = 0; k < indexes.size(); ++k) {
      const auto& writer = batch[indexes[k]].writer;
      if (!ackSent[k] && writer.connection) writer.connection->sendBinary(textOf(syncStatus(writer.address, true)));
    }
  }
  for (auto& write : batch)
    if (write.writer.committed) write.writer.committed->set_value(true);
  compactorWake_.notify_one();
  const auto sentMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (auto& notice : relayed) {
    notice.sentMs = sentMs;
    context_.events().publish(relay::kUpdatesTopic, relay::encode(notice));
  }
}

void CollabServer::broadcast(Room& room,
                             const std::function<std::vector<std::uint8_t>(const std::string& address)>& frame) {
  std::string lastAddress;
  std::vector<std::uint8_t> bytes;
  for (auto& [memberId, member] : room.members) {
    if (bytes.empty() || member.address != lastAddress) {
      bytes = frame(member.address);
      lastAddress = member.address;
    }
    member.connection->sendBinary(textOf(bytes));
  }
}

bool CollabServer::compact(const std::shared_ptr<Room>& room) {
  std::vector<std::uint8_t> state;
  std::int64_t upTo = 0;
  {
    std::lock_guard lock(room->mutex);
    if (!room->doc || !room->dirty()) return true;
    state = room->doc->encodeStateAsUpdate();
    upTo = room->appliedLogId;
  }
  auto* pages = context_.findService<Pages>();
  try {
    if (!pages) return false;
    // Other nodes may hold this page open too, each with only its own clients' updates in
    // memory: what they logged or stored is merged in, never overwritten. One compaction
    // of a page at a time across nodes.
    context_.db().transaction([&](Tx& tx) {
      tx.exec("SELECT pg_advisory_xact_lock($1)", {kCompactionLockBase + room->pageId});
      std::string stored = pages->content(room->pageId).value_or("");  // nullopt: never written
      auto others = log_.readOthers(room->pageId, upTo);
      std::vector<std::int64_t> folded;
      std::size_t storedFingerprint = 0;
      {
        std::lock_guard lock(room->mutex);
        storedFingerprint = room->storedFingerprint;
      }
      std::string content(textOf(state));
      if (!others.empty() || contentFingerprint(stored) != storedFingerprint) {
        ydoc::Doc merged;
        if (!stored.empty()) merged.applyUpdate(bytesOf(stored));
        for (const auto& other : others) {
          try {
            merged.applyUpdate(bytesOf(other.bytes));
          } catch (const ydoc::YdocError& error) {
            context_.logger().error("skipping a log entry that does not apply",
                                    {{"page_id", room->pageId}, {"log_id", other.id}, {"error", error.what()}});
          }
          folded.push_back(other.id);
        }
        merged.applyUpdate(state);
        auto bytes = merged.encodeStateAsUpdate();
        content.assign(textOf(bytes));
        // This node's editors get what the other nodes wrote, and its next compactions
        // keep it: the room's document takes it in too.
        std::lock_guard lock(room->mutex);
        if (room->doc && !room->retired && !room->doc->containsUpdate(bytes)) {
          auto before = room->doc->encodeStateVector();
          room->doc->applyUpdate(bytes);
          auto news = merged.encodeStateAsUpdate(before);
          broadcast(*room, [&](const std::string& to) { return syncUpdate(to, news); });
        }
      }
      // Content first, then the log: a crash between the two replays updates that are
      // already in the content, which Yjs ignores.
      if (!pages->setContent(room->pageId, content)) {
        log_.removePage(room->pageId);  // the page is gone
        return;
      }
      {
        std::lock_guard lock(room->mutex);
        room->storedFingerprint = contentFingerprint(content);
      }
      // Who changed the page, for its history (the snapshot task cuts versions later).
      history_.recordFold(tx, room->pageId, upTo, stored);
      log_.truncate(room->pageId, upTo, folded);
    });
  } catch (const std::exception& error) {
    context_.logger().error("compaction failed", {{"page_id", room->pageId}, {"error", error.what()}});
    return false;
  }
  {
    std::lock_guard lock(room->mutex);
    room->compactedLogId = std::max(room->compactedLogId, upTo);
  }
  context_.events().publish("page.updated", {{"page_id", room->pageId}, {"project_id", room->projectId}});
  return true;
}

void CollabServer::compactorLoop() {
  while (true) {
    {
      std::unique_lock lock(compactorMutex_);
      compactorWake_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; });
      if (stopping_) return;
    }
    std::vector<std::shared_ptr<Room>> rooms;
    {
      std::lock_guard lock(roomsMutex_);
      for (auto& [name, room] : rooms_) rooms.push_back(room);
    }
    auto now = Clock::now();
    for (auto& room : rooms) {
      bool due = false, empty = false;
      {
        std::lock_guard lock(room->mutex);
        empty = room->members.empty();
        empty = empty && room->pendingWrites == 0;
        due = room->dirty() && (empty || now - room->lastChange >= limits_.compactDebounce ||
                                now - room->firstUnfolded >= limits_.compactMaxDelay);
      }
      if (due && !compact(room)) continue;
      if (!empty) continue;
      // Unload a room nobody is in once everything it holds is stored.
      bool unloaded = false;
      {
        std::lock_guard roomsLock(roomsMutex_);
        std::lock_guard lock(room->mutex);
        if (room->members.empty() && !room->dirty() && room->pendingWrites == 0) {
          room->retired = true;
          unloaded = true;
          auto found = rooms_.find(room->name);
          if (found != rooms_.end() && found->second == room) rooms_.erase(found);
        }
      }
      if (unloaded) announce(room->projectId, room->pageId, false, false);
    }
  }
}

void CollabServer::foldStoredLogs() {
  for (auto pageId : log_.pagesWithUpdates(100)) {
    auto* pages = context_.findService<Pages>();
    if (!pages) return;
    auto page = pages->find(pageId);
    if (!page) {
      log_.removePage(pageId);
      continue;
    }
    {
      std::lock_guard lock(roomsMutex_);
      if (rooms_.count(std::to_string(page->projectId) + "__" + std::to_string(pageId))) continue;  // open here
    }
    auto [room, lock] = lockedRoom(page->projectId, pageId);
    lock.unlock();
    compact(room);
  }
}

bool CollabServer::applyUpdate(std::int64_t pageId, std::string_view update) {
  return applyUpdateAs(pageId, update, std::nullopt);
}

bool CollabServer::flush(std::int64_t pageId) {
  auto* pages = context_.findService<Pages>();
  if (!pages) return false;
  auto page = pages->find(pageId);
  if (!page) return false;
  auto room = loadedRoom(page->projectId, pageId);
  return !room || compact(room);
}

void CollabServer::lockPage(Tx& tx, std::int64_t pageId) {
  tx.exec("SELECT pg_advisory_xact_lock($1)", {kCompactionLockBase + pageId});
}

bool CollabServer::applyUpdateAs(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) {
  auto* pages = context_.findService<Pages>();
  if (!pages) throw std::runtime_error("the pages plugin is not running");
  auto page = pages->find(pageId);
  if (!page) return false;
  auto committed = std::make_shared<std::promise<bool>>();
  auto durable = committed->get_future();
  auto [room, lock] = lockedRoom(page->projectId, pageId);
  auto result = write(room, bytesOf(update), Writer{nullptr, "", userId, committed});
  lock.unlock();  // the group commit needs the room
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

std::optional<std::string> CollabServer::currentState(std::int64_t pageId) {
  auto* pages = context_.findService<Pages>();
  if (!pages) return std::nullopt;
  auto page = pages->find(pageId);
  if (!page) return std::nullopt;
  auto [room, lock] = lockedRoom(page->projectId, pageId);
  auto state = room->doc->encodeStateAsUpdate();
  return std::string(textOf(state));
}

bool CollabServer::claimAwarenessClient(Room& room, std::uint64_t claimant, std::uint64_t client, std::size_t maxStates) {
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
  log_.removePage(pageId);
  history_.removePage(pageId);
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

void CollabServer::announce(std::int64_t projectId, std::int64_t pageId, bool open, bool reply) {
  context_.events().publish(relay::kRoomTopic, relay::encode(relay::RoomNotice{{projectId, pageId, log_.node()}, open, reply}));
}

void CollabServer::relayAwareness(const Room& room, std::span<const std::uint8_t> update) {
  if (room.peers.empty()) return;
  publishAwareness(room.projectId, room.pageId, update);
}

void CollabServer::publishAwareness(std::int64_t projectId, std::int64_t pageId, std::span<const std::uint8_t> update) {
  if (update.empty() || update.size() > relay::kMaxAwarenessBytes) return;
  context_.events().publish(relay::kAwarenessTopic, relay::encode(relay::AwarenessNotice{{projectId, pageId, log_.node()},
                                                                                         std::string(textOf(update))}));
}

void CollabServer::onPeerRoom(const nlohmann::json& payload) {
  auto notice = relay::decodeRoom(payload);
  if (!notice || notice->origin.node == log_.node()) return;
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
    for (const auto& [memberId, member] : room->members) local.insert(member.awarenessClients.begin(), member.awarenessClients.end());
    presence = room->awareness.encode(local);
  }
  publishAwareness(room->projectId, room->pageId, presence);
  // A node that opens a page has read the log; it learns who holds the page from their
  // answers. Until then nobody relays to it and it relays to nobody, so on each answer
  // it reads what the answering node committed, and points that node at what it
  // committed itself (fanned out before it knew to relay, so all at or below `committed`).
  if (!notice->reply) return announce(room->projectId, room->pageId, true, true);
  std::vector<std::string> updates;
  for (auto& row : log_.readNode(room->pageId, origin.node)) updates.push_back(std::move(row.bytes));
  if (!updates.empty()) applyFromPeer(room, origin.node, updates);
  if (committed > 0) {
    relay::UpdatesNotice mine{{room->projectId, room->pageId, log_.node()}, {}, 1, committed, 0};
    context_.events().publish(relay::kUpdatesTopic, relay::encode(mine));
  }
}

void CollabServer::onPeerUpdates(const nlohmann::json& payload) {
  auto notice = relay::decodeUpdates(payload);
  if (!notice || notice->origin.node == log_.node()) return;
  auto room = loadedRoom(notice->origin.projectId, notice->origin.pageId);
  if (!room) return;
  auto updates = std::move(notice->updates);
  if (updates.empty())  // too big to carry: read from the log (gone if already folded)
    for (auto& row : log_.readNode(room->pageId, notice->origin.node, notice->fromId, notice->toId))
      updates.push_back(std::move(row.bytes));
  applyFromPeer(room, notice->origin.node, updates);
  if (notice->sentMs > 0 && relayLag_) {
    const auto nowMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
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
    } catch (const ydoc::YdocError& error) {
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
  if (!notice || notice->origin.node == log_.node()) return;
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

}  // namespace docs::collab
