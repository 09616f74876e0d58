#include "access_tokens.hpp"

#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/http.hpp>
#include <docs/topics.hpp>

#include "crypto.hpp"

namespace docs_auth {

using docs::Db;
using docs::EventBus;
using docs::HttpError;
using docs::Param;
using docs::Row;
using docs::Tx;

namespace {

constexpr const char* kTokenColumns =
    "id, user_id, name, scope,"
    " to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS created,"
    " to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS expires,"
    " to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS last_used";

AccessToken tokenFrom(const Row& row) {
  AccessToken token;
  token.id = row.int64("id");
  token.userId = row.int64("user_id");
  token.name = row.text("name");
  token.scope = row.text("scope");
  token.createdAt = row.text("created");
  token.expiresAt = row.optText("expires");
  token.lastUsedAt = row.optText("last_used");
  return token;
}

bool base64UrlChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

}  // namespace

nlohmann::json AccessToken::toJson() const {
  auto optional = [](const std::optional<std::string>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  };
  return {{"id", std::to_string(id)},
          {"name", name},
          {"scope", scope},
          {"createdAt", createdAt},
          {"expiresAt", optional(expiresAt)},
          {"lastUsedAt", optional(lastUsedAt)}};
}

bool looksLikeAccessToken(std::string_view bearer) {
  return bearer.substr(0, kAccessTokenPrefix.size()) == kAccessTokenPrefix;
}

bool wellFormedAccessToken(std::string_view bearer) {
  if (!looksLikeAccessToken(bearer)) return false;
  auto rest = bearer.substr(kAccessTokenPrefix.size());
  if (rest.size() != 43) return false;  // 32 bytes in unpadded base64url
  for (char c : rest)
    if (!base64UrlChar(c)) return false;
  return true;
}

AccessTokens::AccessTokens(Db& db, EventBus& events) : db_(db), events_(events) {}

NewAccessToken AccessTokens::create(std::int64_t userId, const std::string& name, std::optional<int> expiresInDays,
                                    const std::string& scope) {
  NewAccessToken created;
  created.secret = std::string(kAccessTokenPrefix) + randomToken(32);
  db_.transaction([&](Tx& tx) {
    // The user's row is locked so two creations cannot both pass the cap.
    tx.exec("SELECT id FROM auth_users WHERE id = $1 FOR UPDATE", {userId});
    auto count = tx.exec("SELECT count(*) AS n FROM auth_access_tokens WHERE user_id = $1", {userId});
    if (count.at(0).int64("n") >= kMaxTokensPerUser)
      throw HttpError::badRequest(
          "You have " + std::to_string(kMaxTokensPerUser) + " access tokens; revoke one before creating another",
          "too_many_tokens");
    Param expires = expiresInDays ? Param(static_cast<std::int32_t>(*expiresInDays)) : Param(nullptr);
    auto rows = tx.exec(std::string("INSERT INTO auth_access_tokens (user_id, name, token_hash, scope, expires_at)"
                                    " VALUES ($1, $2, $3, $4, now() + make_interval(days => $5::int)) RETURNING ") +
                            kTokenColumns,
                        {userId, name, docs::codec::sha256Hex(created.secret), scope, expires});
    created.token = tokenFrom(rows.at(0));
  });
  return created;
}

std::vector<AccessToken> AccessTokens::list(std::int64_t userId) {
  std::vector<AccessToken> tokens;
  for (auto row : db_.exec(std::string("SELECT ") + kTokenColumns +
                               " FROM auth_access_tokens WHERE user_id = $1 ORDER BY created_at DESC, id DESC",
                           {userId}))
    tokens.push_back(tokenFrom(row));
  return tokens;
}

bool AccessTokens::revoke(std::int64_t userId, std::int64_t tokenId) {
  bool revoked = false;
  db_.transaction([&](Tx& tx) {
    revoked =
        tx.exec("DELETE FROM auth_access_tokens WHERE id = $1 AND user_id = $2", {tokenId, userId}).affectedRows() > 0;
    if (revoked)
      docs::publishAfterCommit(events_, tx, docs::kSessionRevoked, {"pat:" + std::to_string(tokenId), userId});
  });
  return revoked;
}

std::optional<AccessToken> AccessTokens::find(std::string_view secret) {
  if (!wellFormedAccessToken(secret)) return std::nullopt;
  auto rows =
      db_.exec(std::string("SELECT ") + kTokenColumns +
                   ", last_used_at IS NULL OR last_used_at < now() - interval '1 minute' AS stale"
                   " FROM auth_access_tokens WHERE token_hash = $1 AND (expires_at IS NULL OR expires_at > now())",
               {docs::codec::sha256Hex(secret)});
  if (rows.empty()) return std::nullopt;
  AccessToken token = tokenFrom(rows[0]);
  // Reads stay reads: the time of use is written at most once a minute per token.
  if (rows[0].boolean("stale"))
    db_.exec(
        "UPDATE auth_access_tokens SET last_used_at = now() WHERE id = $1"
        " AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
        {token.id});
  return token;
}

}  // namespace docs_auth
