// CollabServer against storage (the pages plugin's Documents service): a room is loaded
// from the page's content and log, and the compactor folds the log into the content
// (debounced while editing, at once when a room empties), one transaction per fold.
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/services/documents.hpp>
#include <docs/topics.hpp>
#include <docs/ydoc/error.hpp>

#include <algorithm>
#include <chrono>
#include <functional>

#include "byte_views.hpp"
#include "collab_server.hpp"
#include "protocol.hpp"

namespace docs_collab {

using docs::FoldedRows;
using docs::FoldInput;
using docs::Tx;

namespace {
using Clock = std::chrono::steady_clock;

// What a page's content was when this process last read or wrote it.
std::size_t contentFingerprint(std::string_view content) { return std::hash<std::string_view>{}(content); }
}  // namespace

void CollabServer::load(Room& room) {
  auto doc = std::make_unique<docs::ydoc::Doc>();
  room.storedFingerprint = contentFingerprint("");
  auto stored = services_.documents->load(room.pageId);
  std::int64_t lastId = 0;
  if (stored) {
    if (!stored->content.empty()) {
      doc->applyUpdate(bytesOf(stored->content));
      room.storedFingerprint = contentFingerprint(stored->content);
    }
    for (const auto& entry : stored->log) {
      try {
        doc->applyUpdate(bytesOf(entry.bytes));
      } catch (const docs::ydoc::YdocError& error) {
        context_.logger().error("skipping a log entry that does not apply",
                                {{"page_id", room.pageId}, {"log_id", entry.id}, {"error", error.what()}});
      }
      lastId = entry.id;
    }
  }
  room.doc = std::move(doc);
  room.appliedLogId = lastId;
  room.compactedLogId = 0;
  if (lastId > 0) room.firstUnfolded = room.lastChange = Clock::now();
  else room.compactedLogId = room.appliedLogId;
}

std::string CollabServer::mergeForFold(const std::shared_ptr<Room>& room, const std::vector<std::uint8_t>& state,
                                       const FoldInput& input) {
  std::size_t storedFingerprint = 0;
  {
    std::lock_guard lock(room->mutex);
    storedFingerprint = room->storedFingerprint;
  }
  // Other nodes may hold this page open too, each with only its own clients' updates in
  // memory: what they logged or stored is merged in, never overwritten.
  if (input.others.empty() && contentFingerprint(input.stored) == storedFingerprint) return std::string(textOf(state));
  docs::ydoc::Doc merged;
  if (!input.stored.empty()) merged.applyUpdate(bytesOf(input.stored));
  for (const auto& other : input.others) {
    try {
      merged.applyUpdate(bytesOf(other.bytes));
    } catch (const docs::ydoc::YdocError& error) {
      context_.logger().error("skipping a log entry that does not apply",
                              {{"page_id", room->pageId}, {"log_id", other.id}, {"error", error.what()}});
    }
  }
  merged.applyUpdate(state);
  auto bytes = merged.encodeStateAsUpdate();
  // This node's editors get what the other nodes wrote, and its next compactions keep
  // it: the room's document takes it in too.
  std::lock_guard lock(room->mutex);
  if (room->doc && !room->retired && !room->doc->containsUpdate(bytes)) {
    auto before = room->doc->encodeStateVector();
    room->doc->applyUpdate(bytes);
    auto news = merged.encodeStateAsUpdate(before);
    broadcast(*room, [&](const std::string& to) { return syncUpdate(to, news); });
  }
  return std::string(textOf(bytes));
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
    // One transaction under the page's lock (pages' Documents::fold): the stored content,
    // the other nodes' rows, the new content, the log's truncation and the history's
    // bookkeeping commit together or not at all.
    bool exists = services_.documents->fold(
        room->pageId, node_, upTo,
        [&](const FoldInput& input) {
          auto content = mergeForFold(room, state, input);
          std::lock_guard lock(room->mutex);
          room->storedFingerprint = contentFingerprint(content);
          return content;
        },
        [&](Tx& tx, const FoldedRows& folded, std::string_view storedBefore) {
          // Who changed the page, for its history (the snapshot task cuts versions later).
          history_.recordFold(tx, room->pageId, folded, storedBefore);
        });
    if (!exists) return true;  // the page is gone, and its log with it
  } catch (const std::exception& error) {
    {
      // The fold rolled back: what the room believes is stored may not be.
      std::lock_guard lock(room->mutex);
      room->storedFingerprint = 0;
    }
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
  for (auto pageId : services_.documents->pagesWithLog(100)) {
    auto page = services_.pages->find(pageId);
    if (!page) {
      // A page deleted while its rows were being written: folding drops them.
      services_.documents->fold(
          pageId, node_, 0, [](const FoldInput& input) { return std::string(input.stored); },
          [](Tx&, const FoldedRows&, std::string_view) {});
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
  if (room) {
    // What was logged beside this room (a server-side edit whose event it has not had yet).
    absorbStored(room);
  } else {
    // Not open here: only a log (a server-side edit, another node's editors) needs a fold.
    auto stored = services_.documents->load(pageId);
    if (!stored || stored->log.empty()) return true;
    auto [loaded, lock] = lockedRoom(page->projectId, pageId);
    lock.unlock();
    room = loaded;
  }
  return compact(room);
}

}  // namespace docs_collab
