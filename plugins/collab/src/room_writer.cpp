// CollabServer's write path: an update applied in a locked room is queued, stored by
// one group commit with its neighbours, and only then acknowledged and fanned out (by a
// second thread, so the next commit overlaps the sending).
#include <docs/context.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/services/documents.hpp>
#include <docs/ydoc/error.hpp>

#include <algorithm>
#include <chrono>
#include <map>

#include "byte_views.hpp"
#include "collab_server.hpp"
#include "protocol.hpp"
#include "relay.hpp"

namespace docs_collab {

using docs::LogRow;

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

CollabServer::WriteResult CollabServer::write(const std::shared_ptr<Room>& roomPtr,
                                              std::span<const std::uint8_t> update, Writer writer) {
  Room& room = *roomPtr;
  {
    // Once stop() began nothing will store it: refused before the document is touched.
    std::lock_guard lock(writesMutex_);
    if (writerStopping_) return WriteResult::Stopping;
  }
  // Malformed bytes throw here, before the document is touched.
  try {
    if (room.doc->containsUpdate(update)) return WriteResult::NothingNew;
  } catch (const docs::ydoc::YdocError&) {
    return WriteResult::Invalid;
  }
  try {
    room.doc->applyUpdate(update);
  } catch (const docs::ydoc::YdocError& error) {
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
  bool stopping = false;
  {
    std::lock_guard lock(writesMutex_);
    stopping = writerStopping_;
    if (!stopping) writes_.push_back({roomPtr, std::string(textOf(update)), std::move(writer)});
  }
  if (stopping) {
    // Applied in memory but never to be stored: the final fold must not store it either.
    resetRoom(room, "Server stopping");
    return WriteResult::Stopping;
  }
  room.pendingWrites += 1;
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
      while (!writes_.empty() && batch.size() < kMaxBatch &&
             (batch.empty() || bytes + writes_.front().update.size() <= kMaxBatchBytes)) {
        bytes += writes_.front().update.size();
        batch.push_back(std::move(writes_.front()));
        writes_.pop_front();
      }
    }
    // One row per room and writer: the updates are packed side by side, not merged (a Yjs
    // merge cost docsd more than the rows cost PostgreSQL; docs/benchmarks.md).
    std::vector<LogRow> entries;
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
      auto rowIds = services_.documents->append(node_, entries);
      if (commitSeconds_)
        commitSeconds_->observe(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - commitStarted).count());
      if (commitBatch_) commitBatch_->observe(static_cast<double>(batch.size()));
      if (updatesApplied_) updatesApplied_->add(static_cast<double>(batch.size()));
      ids.reserve(batch.size());
      for (auto row : rowOf) ids.push_back(rowIds[row]);
    } catch (const std::exception& error) {
      // Applied in memory but not durable: nobody may see it. Everyone resynchronises.
      context_.logger().error("updates not stored; resetting their rooms",
                              {{"updates", batch.size()}, {"error", error.what()}});
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
      relayed.push_back(relay::updatesNotice({room.projectId, room.pageId, node_}, updates, updateIds));
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
  const auto sentMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
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
}  // namespace docs_collab
