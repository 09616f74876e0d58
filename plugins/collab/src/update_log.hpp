#pragma once
// page_updates: the durable log of accepted updates, written before an update is
// acknowledged. Folded into the page's content by the compactor.

#include <cstdint>
#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs {
class Db;
}

namespace docs::collab {

struct LoggedUpdate {
  std::int64_t id = 0;
  std::string bytes;
};

class UpdateLog {
 public:
  // `node` names this process in the rows it writes.
  UpdateLog(Db& db, std::string node) : db_(db), node_(std::move(node)) {}
  // One row: a writer's updates to one page from one group commit. Several updates share
  // the row (packed, `update_count` > 1), which costs PostgreSQL one row instead of many.
  struct Entry {
    std::int64_t pageId = 0;
    std::vector<std::string_view> updates;  // at least one
    std::optional<std::int64_t> userId;
  };
  // Commits one update; returns its log id.
  std::int64_t append(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId);
  // Commits several rows in one transaction (group commit); ids in the same order.
  std::vector<std::int64_t> appendBatch(const std::vector<Entry>& entries);
  // Reads return one LoggedUpdate per update; the updates of a packed row share its id.
  // The page's updates not yet folded into its content, oldest first.
  std::vector<LoggedUpdate> read(std::int64_t pageId);
  // The rows one process wrote for the page, within a log id range, oldest first.
  std::vector<LoggedUpdate> readNode(std::int64_t pageId, std::string_view node, std::int64_t fromId = 0,
                                     std::int64_t toId = INT64_MAX);
  // Rows other processes wrote for the page, up to a log id, oldest first.
  std::vector<LoggedUpdate> readOthers(std::int64_t pageId, std::int64_t upToId);
  // Drops what the content now holds: this process's rows up to a log id, and the other
  // rows named (a row another node has not committed yet is never dropped unseen).
  void truncate(std::int64_t pageId, std::int64_t upToId, const std::vector<std::int64_t>& othersFolded);
  void removePage(std::int64_t pageId);
  // Pages that have log rows (for folding after a restart).
  std::vector<std::int64_t> pagesWithUpdates(int limit);
  const std::string& node() const { return node_; }

 private:
  Db& db_;
  std::string node_;
};

// A packed row's bytes: each update as a lib0 byte array, one after the other.
std::string packUpdates(const std::vector<std::string_view>& updates);
// Throws std::runtime_error if the bytes do not hold exactly `count` updates.
std::vector<std::string> unpackUpdates(std::string_view packed, std::int64_t count);

// "\x" + hex: how the relay's JSON notices carry bytes between nodes (the database takes
// and gives raw bytes: Param::bytes, Row::bytes).
std::string toHex(std::string_view bytes);
std::string fromHexBytea(std::string_view text);

}  // namespace docs::collab
