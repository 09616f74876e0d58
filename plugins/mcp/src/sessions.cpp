#include "sessions.hpp"

#include <docs/codec/codec.hpp>
#include <docs/db.hpp>

#include <stdexcept>

namespace docs_mcp {

using docs::Db;

namespace {

// 128 random bits as 32 hex digits: visible ASCII, as the transport requires.
std::string randomId() { return docs::codec::randomHex(16); }

bool plausibleId(const std::string& id) {
  if (id.size() != 32) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

Sessions::Sessions(Db& db, std::chrono::minutes idle) : db_(db), idle_(idle) {}

McpSession Sessions::open(const std::string& userId, const std::string& protocolVersion,
                          const std::string& clientName) {
  McpSession session{randomId(), userId, protocolVersion};
  db_.exec("INSERT INTO mcp_sessions (id, user_id, protocol_version, client_name) VALUES ($1, $2, $3, $4)",
           {session.id, userId, protocolVersion, clientName.substr(0, 200)});
  return session;
}

std::optional<McpSession> Sessions::find(const std::string& id, const std::string& userId) {
  if (!plausibleId(id)) return std::nullopt;
  auto rows = db_.exec(
      "SELECT protocol_version, last_seen_at < now() - interval '1 minute' AS stale FROM mcp_sessions"
      " WHERE id = $1 AND user_id = $2 AND last_seen_at > now() - make_interval(mins => $3)",
      {id, userId, static_cast<std::int64_t>(idle_.count())});
  if (rows.empty()) return std::nullopt;
  if (rows[0].boolean("stale")) db_.exec("UPDATE mcp_sessions SET last_seen_at = now() WHERE id = $1", {id});
  return McpSession{id, userId, rows[0].text("protocol_version")};
}

bool Sessions::close(const std::string& id, const std::string& userId) {
  if (!plausibleId(id)) return false;
  return db_.exec("DELETE FROM mcp_sessions WHERE id = $1 AND user_id = $2", {id, userId}).affectedRows() > 0;
}

void Sessions::cleanUp() {
  db_.exec("DELETE FROM mcp_sessions WHERE last_seen_at < now() - make_interval(mins => $1)",
           {static_cast<std::int64_t>(idle_.count())});
}

}  // namespace docs_mcp
