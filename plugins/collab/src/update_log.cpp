#include "update_log.hpp"

#include <docs/codec/codec.hpp>
#include <docs/db.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/lib0.hpp>

#include <stdexcept>

namespace docs::collab {

std::string toHex(std::string_view bytes) { return "\\x" + codec::hexEncode(bytes); }

std::string fromHexBytea(std::string_view text) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x' || text.size() % 2 != 0)
    throw std::runtime_error("unexpected bytea text format");
  auto bytes = codec::hexDecode(text.substr(2));
  if (!bytes) throw std::runtime_error("bad hex digit in bytea");
  return std::move(*bytes);
}

std::string packUpdates(const std::vector<std::string_view>& updates) {
  ydoc::Encoder encoder;
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
    ydoc::Decoder decoder({reinterpret_cast<const std::uint8_t*>(packed.data()), packed.size()});
    while (decoder.hasContent()) {
      auto bytes = decoder.readVarUint8Array();
      updates.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  } catch (const ydoc::YdocError& error) {
    throw std::runtime_error(std::string("packed log row does not decode: ") + error.what());
  }
  if (static_cast<std::int64_t>(updates.size()) != count) throw std::runtime_error("packed log row holds the wrong count");
  return updates;
}

namespace {
// SELECT lists id, update, update_count: one LoggedUpdate per update, in order.
std::vector<LoggedUpdate> unpackRows(const Result& rows) {
  std::vector<LoggedUpdate> updates;
  for (auto row : rows) {
    auto id = row.int64("id");
    for (auto& update : unpackUpdates(row.bytes("update"), row.int64("update_count")))
      updates.push_back({id, std::move(update)});
  }
  return updates;
}
}  // namespace

std::int64_t UpdateLog::append(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) {
  return appendBatch({Entry{pageId, {update}, userId}}).front();
}

std::vector<std::int64_t> UpdateLog::appendBatch(const std::vector<Entry>& entries) {
  std::vector<std::int64_t> ids;
  if (entries.empty()) return ids;
  std::string sql = "INSERT INTO page_updates (page_id, update, user_id, update_count, node) VALUES ";
  Params params;
  params.reserve(entries.size() * 4 + 1);
  params.emplace_back(node_);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& entry = entries[i];
    if (entry.updates.empty()) throw std::invalid_argument("a log row holds at least one update");
    std::size_t base = 1 + i * 4;
    if (i) sql += ", ";
    sql += "($" + std::to_string(base + 1) + ", $" + std::to_string(base + 2) + "::bytea, $" + std::to_string(base + 3) +
           ", $" + std::to_string(base + 4) + ", $1)";
    params.emplace_back(entry.pageId);
    params.push_back(Param::bytes(entry.updates.size() == 1 ? entry.updates.front() : packUpdates(entry.updates)));
    params.emplace_back(entry.userId);
    params.emplace_back(static_cast<std::int64_t>(entry.updates.size()));
  }
  // Rows of one multi-row VALUES are inserted, and returned, in order.
  sql += " RETURNING id";
  for (auto row : db_.exec(sql, params)) ids.push_back(row.int64("id"));
  if (ids.size() != entries.size()) throw std::runtime_error("group commit returned the wrong number of ids");
  return ids;
}

std::vector<LoggedUpdate> UpdateLog::read(std::int64_t pageId) {
  return unpackRows(db_.exec("SELECT id, update, update_count FROM page_updates WHERE page_id = $1 ORDER BY id", {pageId}));
}

std::vector<LoggedUpdate> UpdateLog::readNode(std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                              std::int64_t toId) {
  return unpackRows(db_.exec("SELECT id, update, update_count FROM page_updates"
                             " WHERE page_id = $1 AND node = $2 AND id BETWEEN $3 AND $4 ORDER BY id",
                             {pageId, std::string(node), fromId, toId}));
}

std::vector<LoggedUpdate> UpdateLog::readOthers(std::int64_t pageId, std::int64_t upToId) {
  return unpackRows(db_.exec("SELECT id, update, update_count FROM page_updates"
                             " WHERE page_id = $1 AND id <= $2 AND node <> $3 ORDER BY id",
                             {pageId, upToId, node_}));
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
