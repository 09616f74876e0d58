#pragma once
// page_versions and page_history_pending: the SQL of page history. A version is a whole
// Yjs state; the pending row gathers who changed the page since its newest version.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <docs/services/documents.hpp>

namespace docs {
class Db;
class Tx;
}  // namespace docs

namespace docs_collab {

struct VersionInfo {
  std::int64_t id = 0;
  std::string createdAt;              // ISO 8601, UTC
  std::vector<std::int64_t> authors;  // user ids
  std::string label;
  std::string kind;  // edit | baseline | labelled | restore
};

struct Author {
  std::int64_t id = 0;
  std::string name;
};

class HistoryStore {
 public:
  explicit HistoryStore(docs::Db& db) : db_(db) {}

  // Compaction path, inside the fold's transaction (the page's lock held): the authors
  // and times of the log rows it folded join the page's pending row; a page without versions first gets its stored
  // content as a baseline version, so the state before the first edit can be restored.
  void recordFold(docs::Tx& tx, std::int64_t pageId, const docs::FoldedRows& folded, std::string_view storedBefore);
  // Under the page's compaction lock: records `state` as the newest version with the
  // pending authors (clearing them). Equal to the newest version: no row; that one
  // takes the label if it has none and the authors. Returns the version's id.
  std::int64_t snapshot(docs::Tx& tx, std::int64_t pageId, std::string_view state, std::string_view label,
                        std::string_view kind);
  // Pages whose pending changes are due: quiet for idleSeconds, or pending for
  // maxIntervalSeconds.
  std::vector<std::int64_t> duePages(std::int64_t idleSeconds, std::int64_t maxIntervalSeconds, int limit);
  // Newest first, ids below `beforeId` (0: from the newest).
  std::vector<VersionInfo> list(std::int64_t pageId, std::int64_t beforeId, int limit);
  std::optional<VersionInfo> find(std::int64_t pageId, std::int64_t versionId);
  std::optional<std::string> state(std::int64_t pageId, std::int64_t versionId);
  // Display names of users (read from the auth plugin's users; empty when unknown).
  std::vector<Author> authors(const std::vector<std::int64_t>& ids);
  // Thins one page's versions by thinning.hpp's policy, as of the database's now;
  // returns how many were dropped.
  int thinPage(std::int64_t pageId);
  // Pages with unlabelled versions older than a day (the ones thinning may touch).
  std::vector<std::int64_t> pagesToThin(int limit);
  void removePage(std::int64_t pageId);

 private:
  docs::Db& db_;
};

// "{1,2,3}" (PostgreSQL bigint[] text) <-> ids.
std::vector<std::int64_t> parseIdArray(std::string_view text);
std::string idArrayText(const std::vector<std::int64_t>& ids);

}  // namespace docs_collab
