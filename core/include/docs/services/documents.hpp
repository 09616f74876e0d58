#pragma once
// A page's document: its stored content (the Yjs state as one update) and the log of
// accepted updates not yet folded into it. Implemented by the pages plugin, which owns
// both; the collab plugin keeps live rooms on top of it (logs each accepted update
// through `append` before acknowledging it, folds through `fold`), and every other reader
// or server-side writer goes through `read` and `apply`, which never open a room.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

class Tx;

// One logged update. The updates of a packed row (several from one writer in one group
// commit) share its id.
struct LoggedUpdate {
  std::int64_t id = 0;
  std::string bytes;
};

// A row to log: one writer's updates to one page from one group commit.
struct LogRow {
  std::int64_t pageId = 0;
  std::vector<std::string_view> updates;  // at least one
  std::optional<std::int64_t> userId;     // who wrote them, for the page's history
};

// What a page holds in storage, unmerged: what a room is loaded from.
struct StoredDocument {
  std::string content;            // "" when never written
  std::vector<LoggedUpdate> log;  // not yet folded, oldest first
};

// What a fold gives the caller's merge: the stored content and the rows other writers
// (nodes) logged up to the fold's id, which the merged content must hold.
struct FoldInput {
  std::string_view stored;  // "" when never written
  const std::vector<LoggedUpdate>& others;
};

// The log rows a fold removed, for the page's history.
struct FoldedRows {
  std::int64_t rows = 0;
  std::vector<std::int64_t> authors;  // distinct user ids, ascending
  std::string firstChange;            // ISO 8601 UTC timestamps of the oldest and newest row ("" when none)
  std::string lastChange;
};

class Documents {
 public:
  static constexpr const char* kServiceId = "docs.documents/1";
  virtual ~Documents();

  // The page's document: stored content merged with every logged update, as one update
  // ("" for a page never written); nullopt when the page does not exist.
  virtual std::optional<std::string> read(std::int64_t pageId) = 0;
  // Stored content and log, unmerged; nullopt when the page does not exist.
  virtual std::optional<StoredDocument> load(std::int64_t pageId) = 0;
  // Logs rows in one transaction (a group commit), each named with the writer `node`;
  // returns their ids in the same order. Rows of a page that no longer exists are kept
  // until a fold drops them.
  virtual std::vector<std::int64_t> append(std::string_view node, const std::vector<LogRow>& rows) = 0;
  // The rows `node` logged for the page with ids in [fromId, toId], oldest first.
  virtual std::vector<LoggedUpdate> readNode(std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                             std::int64_t toId) = 0;
  // Pages that have log rows (to fold after a restart), at most `limit`.
  virtual std::vector<std::int64_t> pagesWithLog(int limit) = 0;
  // Folds, in one transaction under the page's lock (one fold or apply of a page at a
  // time across nodes): reads the stored content and the other nodes' rows up to upToId,
  // stores what `merge` returns, deletes `node`'s rows up to upToId and the others read,
  // and runs `inSameTx` (the history's bookkeeping). Anything thrown rolls all of it
  // back. False when the page no longer exists (its log is dropped instead).
  virtual bool fold(std::int64_t pageId, std::string_view node, std::int64_t upToId,
                    const std::function<std::string(const FoldInput&)>& merge,
                    const std::function<void(Tx&, const FoldedRows&, std::string_view storedBefore)>& inSameTx) = 0;
  // Takes the page's fold lock until tx ends and returns its stored content (the empty
  // document "\0\0" when never written); nullopt when the page does not exist.
  virtual std::optional<std::string> lockStored(Tx& tx, std::int64_t pageId) = 0;
  // A server-side edit, on behalf of `userId` when given: a Yjs v1 update checked against
  // the page's document (content and log). With page history (collab's PageHistory
  // service) it is logged, as the node "", for collab to fold with its author; without,
  // it is merged into the stored content at once. Publishes page.content_replaced, from
  // which open rooms take it. False when the page does not exist; std::invalid_argument
  // when the update does not decode or apply.
  virtual bool apply(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) = 0;
  // Replaces the stored document with a whole one and drops its log (a page just written
  // by a generation run). False when the page does not exist; std::invalid_argument when
  // the bytes are not a Yjs update.
  virtual bool replace(std::int64_t pageId, std::string_view document) = 0;
};

}  // namespace docs
