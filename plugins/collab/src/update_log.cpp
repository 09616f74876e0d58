#include "update_log.hpp"

#include <docs/db.hpp>

#include <stdexcept>

namespace docs::collab {

std::string toHex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out = "\\x";
  out.reserve(2 + bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string fromHexBytea(std::string_view text) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x' || text.size() % 2 != 0)
    throw std::runtime_error("unexpected bytea text format");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex digit in bytea");
  };
  std::string out;
  out.reserve((text.size() - 2) / 2);
  for (std::size_t i = 2; i < text.size(); i += 2)
    out += static_cast<char>(nibble(text[i]) * 16 + nibble(text[i + 1]));
  return out;
}

std::int64_t UpdateLog::append(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) {
  return db_.exec("INSERT INTO page_updates (page_id, update, user_id, node) VALUES ($1, $2::bytea, $3, $4) RETURNING id",
                  {pageId, toHex(update), userId, node_})[0]
      .int64("id");
}

std::vector<std::int64_t> UpdateLog::appendBatch(const std::vector<Entry>& entries) {
  std::vector<std::int64_t> ids;
  if (entries.empty()) return ids;
  std::string sql = "INSERT INTO page_updates (page_id, update, user_id, node) VALUES ";
  Params params;
  params.reserve(entries.size() * 3 + 1);
  params.emplace_back(node_);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::size_t base = 1 + i * 3;
    if (i) sql += ", ";
    sql += "($" + std::to_string(base + 1) + ", $" + std::to_string(base + 2) + "::bytea, $" + std::to_string(base + 3) + ", $1)";
    params.emplace_back(entries[i].pageId);
    params.emplace_back(toHex(entries[i].update));
    params.emplace_back(entries[i].userId);
  }
  // Rows of one multi-row VALUES are inserted, and returned, in order.
  sql += " RETURNING id";
  for (auto row : db_.exec(sql, params)) ids.push_back(row.int64("id"));
  if (ids.size() != entries.size()) throw std::runtime_error("group commit returned the wrong number of ids");
  return ids;
}

std::vector<LoggedUpdate> UpdateLog::read(std::int64_t pageId) {
  std::vector<LoggedUpdate> updates;
  for (auto row : db_.exec("SELECT id, update FROM page_updates WHERE page_id = $1 ORDER BY id", {pageId}))
    updates.push_back({row.int64("id"), fromHexBytea(row.text("update"))});
  return updates;
}

std::vector<LoggedUpdate> UpdateLog::readNode(std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                              std::int64_t toId) {
  std::vector<LoggedUpdate> updates;
  for (auto row : db_.exec("SELECT id, update FROM page_updates WHERE page_id = $1 AND node = $2 AND id BETWEEN $3 AND $4"
                           " ORDER BY id",
                           {pageId, std::string(node), fromId, toId}))
    updates.push_back({row.int64("id"), fromHexBytea(row.text("update"))});
  return updates;
}

std::vector<LoggedUpdate> UpdateLog::readOthers(std::int64_t pageId, std::int64_t upToId) {
  std::vector<LoggedUpdate> updates;
  for (auto row : db_.exec("SELECT id, update FROM page_updates WHERE page_id = $1 AND id <= $2 AND node <> $3 ORDER BY id",
                           {pageId, upToId, node_}))
    updates.push_back({row.int64("id"), fromHexBytea(row.text("update"))});
  return updates;
}

void UpdateLog::truncate(std::int64_t pageId, std::int64_t upToId, const std::vector<std::int64_t>& othersFolded) {
  std::string others = "{";
  for (std::size_t i = 0; i < othersFolded.size(); ++i) others += (i ? "," : "") + std::to_string(othersFolded[i]);
  others += "}";
  db_.exec("DELETE FROM page_updates WHERE page_id = $1 AND ((node = $3 AND id <= $2) OR id = ANY($4::bigint[]))",
           {pageId, upToId, node_, others});
}

void UpdateLog::removePage(std::int64_t pageId) { db_.exec("DELETE FROM page_updates WHERE page_id = $1", {pageId}); }

std::vector<std::int64_t> UpdateLog::pagesWithUpdates(int limit) {
  std::vector<std::int64_t> pages;
  for (auto row : db_.exec("SELECT DISTINCT page_id FROM page_updates ORDER BY page_id LIMIT $1", {limit}))
    pages.push_back(row.int64("page_id"));
  return pages;
}

}  // namespace docs::collab
