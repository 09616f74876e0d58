#include "document_store.hpp"

#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace docs_pages {

namespace {

// pg_advisory_xact_lock keys of page documents: this base plus the page id (the key the
// collab plugin's compactions took before the log moved here, so a node of the previous
// release and this one never fold one page at once).
constexpr std::int64_t kDocumentLockBase = std::int64_t{0x636f6c6c} << 32;

constexpr const char* kLogColumns = "id, update, update_count";

// One LoggedUpdate per update, in order.
std::vector<docs::LoggedUpdate> unpackRows(const docs::Result& rows) {
  std::vector<docs::LoggedUpdate> updates;
  for (auto row : rows) {
    auto id = row.int64("id");
    for (auto& update : unpackUpdates(row.bytes("update"), row.int64("update_count")))
      updates.push_back({id, std::move(update)});
  }
  return updates;
}

std::optional<std::string> contentOf(const docs::Result& rows) {
  if (rows.empty()) return std::nullopt;
  return rows[0].isNull("content") ? std::string() : rows[0].bytes("content");
}

std::string idArray(const std::vector<std::int64_t>& ids) {
  std::string text = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) text += (i ? "," : "") + std::to_string(ids[i]);
  return text + "}";
}

}  // namespace

void lockDocument(docs::Tx& tx, std::int64_t pageId) {
  tx.exec("SELECT pg_advisory_xact_lock($1)", {kDocumentLockBase + pageId});
}

std::optional<std::string> storedContent(docs::Db& db, std::int64_t pageId) {
  return contentOf(db.exec("SELECT content_bytea AS content FROM pages WHERE id = $1", {pageId}));
}

std::optional<std::string> storedContent(docs::Tx& tx, std::int64_t pageId) {
  return contentOf(tx.exec("SELECT content_bytea AS content FROM pages WHERE id = $1", {pageId}));
}

bool writeContent(docs::Tx& tx, std::int64_t pageId, std::string_view bytes) {
  return tx.exec("UPDATE pages SET content_bytea = $2::bytea, updated_at = now() WHERE id = $1",
                 {pageId, docs::Param::bytes(bytes)})
             .affectedRows() > 0;
}

std::vector<docs::LoggedUpdate> logOf(docs::Tx& tx, std::int64_t pageId) {
  return unpackRows(
      tx.exec(std::string("SELECT ") + kLogColumns + " FROM page_log WHERE page_id = $1 ORDER BY id", {pageId}));
}

std::vector<docs::LoggedUpdate> logOfNode(docs::Db& db, std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                          std::int64_t toId) {
  return unpackRows(db.exec(std::string("SELECT ") + kLogColumns +
                                " FROM page_log WHERE page_id = $1 AND node = $2 AND id BETWEEN $3 AND $4 ORDER BY id",
                            {pageId, std::string(node), fromId, toId}));
}

std::vector<docs::LoggedUpdate> logOfOthers(docs::Tx& tx, std::int64_t pageId, std::string_view node,
                                            std::int64_t upToId) {
  return unpackRows(tx.exec(std::string("SELECT ") + kLogColumns +
                                " FROM page_log WHERE page_id = $1 AND id <= $2 AND node <> $3 ORDER BY id",
                            {pageId, upToId, std::string(node)}));
}

std::vector<std::int64_t> appendLog(docs::Db& db, std::string_view node, const std::vector<docs::LogRow>& rows) {
  std::vector<std::int64_t> ids;
  if (rows.empty()) return ids;
  std::string sql = "INSERT INTO page_log (page_id, update, user_id, update_count, node) VALUES ";
  docs::Params params;
  params.reserve(rows.size() * 4 + 1);
  params.emplace_back(std::string(node));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    if (row.updates.empty()) throw std::invalid_argument("a log row holds at least one update");
    std::size_t base = 1 + i * 4;
    if (i) sql += ", ";
    sql += "($" + std::to_string(base + 1) + ", $" + std::to_string(base + 2) + "::bytea, $" +
           std::to_string(base + 3) + ", $" + std::to_string(base + 4) + ", $1)";
    params.emplace_back(row.pageId);
    params.push_back(
        docs::Param::bytes(row.updates.size() == 1 ? std::string(row.updates.front()) : packUpdates(row.updates)));
    params.emplace_back(row.userId);
    params.emplace_back(static_cast<std::int64_t>(row.updates.size()));
  }
  // Rows of one multi-row VALUES are inserted, and returned, in order.
  sql += " RETURNING id";
  for (auto row : db.exec(sql, params)) ids.push_back(row.int64("id"));
  if (ids.size() != rows.size()) throw std::runtime_error("the log returned the wrong number of ids");
  return ids;
}

docs::FoldedRows deleteFolded(docs::Tx& tx, std::int64_t pageId, std::string_view node, std::int64_t upToId,
                              const std::vector<std::int64_t>& othersFolded) {
  auto rows = tx.exec(
      "DELETE FROM page_log WHERE page_id = $1 AND ((node = $3 AND id <= $2) OR id = ANY($4::bigint[]))"
      " RETURNING user_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS created",
      {pageId, upToId, std::string(node), idArray(othersFolded)});
  docs::FoldedRows folded;
  std::set<std::int64_t> authors;
  for (auto row : rows) {
    folded.rows += 1;
    if (!row.isNull("user_id")) authors.insert(row.int64("user_id"));
    const auto& created = row.text("created");  // ISO 8601 in UTC: ordered as text
    if (folded.firstChange.empty() || created < folded.firstChange) folded.firstChange = created;
    if (created > folded.lastChange) folded.lastChange = created;
  }
  folded.authors.assign(authors.begin(), authors.end());
  return folded;
}

void deleteLog(docs::Tx& tx, std::int64_t pageId) { tx.exec("DELETE FROM page_log WHERE page_id = $1", {pageId}); }

void deleteLogOfPages(docs::Tx& tx, const std::vector<std::int64_t>& pageIds) {
  if (!pageIds.empty()) tx.exec("DELETE FROM page_log WHERE page_id = ANY($1::bigint[])", {idArray(pageIds)});
}

std::vector<std::int64_t> pagesWithLog(docs::Db& db, int limit) {
  std::vector<std::int64_t> pages;
  for (auto row : db.exec("SELECT DISTINCT page_id FROM page_log ORDER BY page_id LIMIT $1", {limit}))
    pages.push_back(row.int64("page_id"));
  return pages;
}

std::string packUpdates(const std::vector<std::string_view>& updates) {
  docs::ydoc::Encoder encoder;
  for (auto update : updates)
    encoder.writeVarUint8Array({reinterpret_cast<const std::uint8_t*>(update.data()), update.size()});
  const auto& bytes = encoder.bytes();
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::vector<std::string> unpackUpdates(std::string_view packed, std::int64_t count) {
  std::vector<std::string> updates;
  if (count == 1) {
    updates.emplace_back(packed);
    return updates;
  }
  try {
    docs::ydoc::Decoder decoder({reinterpret_cast<const std::uint8_t*>(packed.data()), packed.size()});
    while (decoder.hasContent()) {
      auto bytes = decoder.readVarUint8Array();
      updates.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  } catch (const docs::ydoc::YdocError& error) {
    throw std::runtime_error(std::string("packed log row does not decode: ") + error.what());
  }
  if (static_cast<std::int64_t>(updates.size()) != count)
    throw std::runtime_error("packed log row holds the wrong count");
  return updates;
}

}  // namespace docs_pages
