// CollabServer against storage: a room is loaded from the page content and its log, and
// the compactor folds the log into the content (debounced while editing, at once when a
// room empties), across nodes under one advisory lock per page.
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/topics.hpp>
#include <docs/ydoc/error.hpp>

#include <algorithm>
#include <chrono>
#include <functional>

#include "byte_views.hpp"
#include "collab_server.hpp"
#include "protocol.hpp"

namespace docs::collab {
namespace {
using Clock = std::chrono::steady_clock;

// What a page's content was when this process last read or wrote it.
std::size_t contentFingerprint(std::string_view content) { return std::hash<std::string_view>{}(content); }
}  // namespace

void CollabServer::load(Room& room) {
  auto doc = std::make_unique<ydoc::Doc>();
  room.storedFingerprint = contentFingerprint("");
  if (auto content = services_.pages->content(room.pageId); content && !content->empty()) {
    doc->applyUpdate(bytesOf(*content));
    room.storedFingerprint = contentFingerprint(*content);
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

bool CollabServer::compact(const std::shared_ptr<Room>& room) {
  std::vector<std::uint8_t> state;
  std::int64_t upTo = 0;
  {
    std::lock_guard lock(room->mutex);
    if (!room->doc || !room->dirty()) return true;
    state = room->doc->encodeStateAsUpdate();
    upTo = room->appliedLogId;
  }
  try {
    // Other nodes may hold this page open too, each with only its own clients' updates in
    // memory: what they logged or stored is merged in, never overwritten. One compaction
    // of a page at a time across nodes.
    context_.db().transaction([&](Tx& tx) {
      tx.exec("SELECT pg_advisory_xact_lock($1)", {kCompactionLockBase + room->pageId});
      std::string stored = services_.pages->content(room->pageId).value_or("");  // nullopt: never written
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
      if (!services_.pages->setContent(room->pageId, content)) {
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
  docs::publish(context_.events(), docs::kPageUpdated, {room->projectId, room->pageId});
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
    auto page = services_.pages->find(pageId);
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

bool CollabServer::flush(std::int64_t pageId) {
  auto page = services_.pages->find(pageId);
  if (!page) return false;
  auto room = loadedRoom(page->projectId, pageId);
  return !room || compact(room);
}

void CollabServer::lockPage(Tx& tx, std::int64_t pageId) {
  tx.exec("SELECT pg_advisory_xact_lock($1)", {kCompactionLockBase + pageId});
}
}  // namespace docs::collab
