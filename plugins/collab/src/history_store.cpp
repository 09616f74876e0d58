#include "history_store.hpp"

#include <docs/db.hpp>

#include <algorithm>
#include <charconv>
#include <map>

#include "history_thinning.hpp"

namespace docs_collab {

using docs::DbError;
using docs::FoldedRows;
using docs::Param;
using docs::Row;
using docs::Tx;

namespace {

constexpr const char* kVersionColumns =
    "id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS created_at, "
    "authors::text AS authors, label, kind";

VersionInfo versionOf(const Row& row) {
  VersionInfo info;
  info.id = row.int64("id");
  info.createdAt = row.text("created_at");
  info.authors = parseIdArray(row.text("authors"));
  info.label = row.text("label");
  info.kind = row.text("kind");
  return info;
}

}  // namespace

std::vector<std::int64_t> parseIdArray(std::string_view text) {
  std::vector<std::int64_t> ids;
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && (text[at] < '0' || text[at] > '9')) ++at;
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), value);
    if (error != std::errc()) break;
    ids.push_back(value);
    at = static_cast<std::size_t>(end - text.data());
  }
  return ids;
}

std::string idArrayText(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

void HistoryStore::recordFold(Tx& tx, std::int64_t pageId, const FoldedRows& folded, std::string_view storedBefore) {
  if (folded.rows == 0) return;
  auto pending = tx.exec(
      "INSERT INTO page_history_pending (page_id, authors, first_change, last_change)"
      " VALUES ($1, $2::bigint[], $3::timestamptz, $4::timestamptz)"
      " ON CONFLICT (page_id) DO UPDATE SET"
      "   authors = ARRAY(SELECT DISTINCT a FROM unnest(page_history_pending.authors || EXCLUDED.authors) a ORDER BY "
      "a),"
      "   last_change = greatest(page_history_pending.last_change, EXCLUDED.last_change)"
      " RETURNING (xmax = 0) AS inserted",
      {pageId, idArrayText(folded.authors), folded.firstChange, folded.lastChange});
  // A new pending row: the first change since the newest version, or ever.
  if (pending.empty() || !pending[0].boolean("inserted") || storedBefore.empty()) return;
  tx.exec(
      "INSERT INTO page_versions (page_id, state, kind)"
      " SELECT $1, $2::bytea, 'baseline' WHERE NOT EXISTS (SELECT 1 FROM page_versions WHERE page_id = $1)",
      {pageId, Param::bytes(storedBefore)});
}

std::int64_t HistoryStore::snapshot(Tx& tx, std::int64_t pageId, std::string_view state, std::string_view label,
                                    std::string_view kind) {
  auto pending =
      tx.exec("DELETE FROM page_history_pending WHERE page_id = $1 RETURNING authors::text AS authors", {pageId});
  std::string authors = pending.empty() ? "{}" : pending[0].text("authors");
  Param stateBytes = Param::bytes(state);
  auto newest = tx.exec(
      "SELECT id, label, state = $2::bytea AS same FROM page_versions WHERE page_id = $1 ORDER BY id DESC LIMIT 1",
      {pageId, stateBytes});
  if (!newest.empty() && newest[0].boolean("same")) {
    std::int64_t id = newest[0].int64("id");
    bool takeLabel = !label.empty() && newest[0].text("label").empty();
    tx.exec(
        "UPDATE page_versions SET"
        " authors = ARRAY(SELECT DISTINCT a FROM unnest(authors || $2::bigint[]) a ORDER BY a),"
        " label = CASE WHEN $3 THEN $4 ELSE label END, kind = CASE WHEN $3 THEN $5 ELSE kind END"
        " WHERE id = $1",
        {id, authors, takeLabel, std::string(label), std::string(kind)});
    return id;
  }
  auto inserted = tx.exec(
      "INSERT INTO page_versions (page_id, state, authors, label, kind)"
      " VALUES ($1, $2::bytea, $3::bigint[], $4, $5) RETURNING id",
      {pageId, stateBytes, authors, std::string(label), std::string(kind)});
  return inserted[0].int64("id");
}

std::vector<std::int64_t> HistoryStore::duePages(std::int64_t idleSeconds, std::int64_t maxIntervalSeconds, int limit) {
  auto rows = db_.exec(
      "SELECT page_id FROM page_history_pending"
      " WHERE last_change <= now() - make_interval(secs => $1) OR first_change <= now() - make_interval(secs => $2)"
      " ORDER BY last_change LIMIT $3",
      {idleSeconds, maxIntervalSeconds, static_cast<std::int64_t>(limit)});
  std::vector<std::int64_t> pages;
  for (auto row : rows) pages.push_back(row.int64("page_id"));
  return pages;
}

std::vector<VersionInfo> HistoryStore::list(std::int64_t pageId, std::int64_t beforeId, int limit) {
  auto rows = db_.exec(std::string("SELECT ") + kVersionColumns +
                           " FROM page_versions WHERE page_id = $1 AND ($2 = 0 OR id < $2) ORDER BY id DESC LIMIT $3",
                       {pageId, beforeId, static_cast<std::int64_t>(limit)});
  std::vector<VersionInfo> versions;
  for (auto row : rows) versions.push_back(versionOf(row));
  return versions;
}

std::optional<VersionInfo> HistoryStore::find(std::int64_t pageId, std::int64_t versionId) {
  auto rows = db_.exec(std::string("SELECT ") + kVersionColumns + " FROM page_versions WHERE page_id = $1 AND id = $2",
                       {pageId, versionId});
  if (rows.empty()) return std::nullopt;
  return versionOf(rows[0]);
}

std::optional<std::string> HistoryStore::state(std::int64_t pageId, std::int64_t versionId) {
  auto rows = db_.exec("SELECT state FROM page_versions WHERE page_id = $1 AND id = $2", {pageId, versionId});
  if (rows.empty()) return std::nullopt;
  return rows[0].bytes("state");
}

std::vector<Author> HistoryStore::authors(const std::vector<std::int64_t>& ids) {
  std::vector<Author> out;
  std::map<std::int64_t, std::string> names;
  if (!ids.empty()) {
    // The auth plugin's users, read only for display; no name is better than no history.
    try {
      for (auto row : db_.exec("SELECT id, name FROM auth_users WHERE id = ANY($1::bigint[])", {idArrayText(ids)}))
        names[row.int64("id")] = row.text("name");
    } catch (const DbError&) {
    }
  }
  for (auto id : ids) out.push_back({id, names.count(id) ? names[id] : std::string()});
  return out;
}

int HistoryStore::thinPage(std::int64_t pageId) {
  int dropped = 0;
  db_.transaction([&](Tx& tx) {
    auto rows = tx.exec(
        "SELECT id, extract(epoch FROM created_at)::bigint AS at, label <> '' AS labelled, authors::text AS authors,"
        " extract(epoch FROM now())::bigint AS now"
        " FROM page_versions WHERE page_id = $1 ORDER BY id FOR UPDATE",
        {pageId});
    if (rows.empty()) return;
    std::vector<ThinningCandidate> candidates;
    std::map<std::int64_t, std::string> authorsOf;
    for (auto row : rows) {
      candidates.push_back({row.int64("id"), row.int64("at"), row.boolean("labelled")});
      authorsOf[row.int64("id")] = row.text("authors");
    }
    auto drop = versionsToThin(candidates, rows[0].int64("now"));
    if (drop.empty()) return;
    std::sort(drop.begin(), drop.end());
    // A dropped version's authors move to the next version kept after it, so every
    // change stays attributed to someone in the history.
    std::map<std::int64_t, std::vector<std::int64_t>> inherited;
    std::vector<std::int64_t> carried;
    for (const auto& [id, authors] : authorsOf) {
      bool dropping = std::binary_search(drop.begin(), drop.end(), id);
      auto own = parseIdArray(authors);
      if (dropping) {
        carried.insert(carried.end(), own.begin(), own.end());
        continue;
      }
      if (!carried.empty()) inherited[id] = std::move(carried);
      carried.clear();
    }
    for (const auto& [id, ids] : inherited)
      tx.exec(
          "UPDATE page_versions SET authors = ARRAY(SELECT DISTINCT a FROM unnest(authors || $2::bigint[]) a ORDER BY "
          "a)"
          " WHERE id = $1",
          {id, idArrayText(ids)});
    tx.exec("DELETE FROM page_versions WHERE id = ANY($1::bigint[])", {idArrayText(drop)});
    dropped = static_cast<int>(drop.size());
  });
  return dropped;
}

std::vector<std::int64_t> HistoryStore::pagesToThin(int limit) {
  auto rows = db_.exec(
      "SELECT DISTINCT page_id FROM page_versions WHERE label = '' AND created_at < now() - interval '1 day' LIMIT $1",
      {static_cast<std::int64_t>(limit)});
  std::vector<std::int64_t> pages;
  for (auto row : rows) pages.push_back(row.int64("page_id"));
  return pages;
}

void HistoryStore::removePage(std::int64_t pageId) {
  db_.transaction([&](Tx& tx) {
    tx.exec("DELETE FROM page_versions WHERE page_id = $1", {pageId});
    tx.exec("DELETE FROM page_history_pending WHERE page_id = $1", {pageId});
  });
}

}  // namespace docs_collab
