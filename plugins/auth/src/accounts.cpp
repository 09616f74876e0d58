#include "accounts.hpp"

#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/topics.hpp>

#include "crypto.hpp"

namespace docs_auth {

using docs::Db;
using docs::EventBus;
using docs::Row;
using docs::Tx;

namespace {

constexpr const char* kUserColumns =
    "u.id, u.email, u.name, u.image, u.login,"
    " to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS created_at,"
    " to_char(u.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS updated_at";
constexpr const char* kSessionColumns =
    "s.id AS session_id, s.user_id,"
    " to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS session_created_at,"
    " to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS session_expires_at";

User userFrom(const Row& row) {
  User user;
  user.id = row.int64("id");
  user.email = row.text("email");
  user.name = row.text("name");
  user.image = row.text("image");
  user.login = row.optText("login");
  user.createdAt = row.text("created_at");
  user.updatedAt = row.text("updated_at");
  return user;
}

Session sessionFrom(const Row& row) {
  return {row.text("session_id"), row.int64("user_id"), row.text("session_created_at"), row.text("session_expires_at")};
}

std::string selectUser(const std::string& where) {
  return std::string("SELECT ") + kUserColumns + " FROM auth_users u WHERE " + where;
}

}  // namespace

nlohmann::json User::toJson() const {
  return {{"id", std::to_string(id)},
          {"email", email},
          {"name", name},
          {"image", image.empty() ? nlohmann::json(nullptr) : nlohmann::json(image)},
          {"login", login ? nlohmann::json(*login) : nlohmann::json(nullptr)},
          {"emailVerified", true},
          {"createdAt", createdAt},
          {"updatedAt", updatedAt}};
}

nlohmann::json Session::toJson() const {
  return {{"id", id}, {"userId", std::to_string(userId)}, {"createdAt", createdAt}, {"expiresAt", expiresAt}};
}

Accounts::Accounts(Db& db, EventBus& events, std::chrono::seconds sessionLifetime, std::chrono::seconds sessionMaxAge)
    : db_(db), events_(events), sessionLifetime_(sessionLifetime), sessionMaxAge_(sessionMaxAge) {}

User Accounts::userForEmail(Tx& tx, const std::string& email) {
  auto inserted = tx.exec(std::string("WITH u AS (INSERT INTO auth_users (email) VALUES ($1)"
                                      " ON CONFLICT (email) DO NOTHING RETURNING *) SELECT ") +
                              kUserColumns + " FROM u",
                          {email});
  if (!inserted.empty()) {
    User user = userFrom(inserted[0]);
    docs::publishAfterCommit(events_, tx, docs::kUserCreated, {user.id, user.email});
    return user;
  }
  return userFrom(tx.exec(selectUser("u.email = $1"), {email}).at(0));
}

User Accounts::userForGithub(Tx& tx, const GithubProfile& profile) {
  auto linked = tx.exec(std::string("SELECT ") + kUserColumns +
                            " FROM auth_accounts a JOIN auth_users u ON u.id = a.user_id"
                            " WHERE a.provider = 'github' AND a.account_id = $1 FOR UPDATE OF u",
                        {profile.accountId});
  User user = linked.empty() ? userForEmail(tx, profile.email) : userFrom(linked[0]);
  if (linked.empty())
    tx.exec(
        "INSERT INTO auth_accounts (provider, account_id, user_id) VALUES ('github', $1, $2)"
        " ON CONFLICT (provider, account_id) DO NOTHING",
        {profile.accountId, user.id});
  // GitHub is the source of the login and avatar; a name set elsewhere is kept.
  auto updated = tx.exec(std::string("UPDATE auth_users u SET login = $2, image = $3,"
                                     " name = CASE WHEN u.name = '' THEN $4 ELSE u.name END, updated_at = now()"
                                     " WHERE u.id = $1 RETURNING ") +
                             kUserColumns,
                         {user.id, profile.login, profile.image, profile.name.empty() ? profile.login : profile.name});
  return userFrom(updated.at(0));
}

std::optional<std::pair<std::string, std::string>> Accounts::linkedAccount(std::int64_t userId,
                                                                           const std::string& provider) {
  auto rows = db_.exec(
      "SELECT a.account_id, coalesce(u.login, '') AS login FROM auth_accounts a"
      " JOIN auth_users u ON u.id = a.user_id WHERE a.user_id = $1 AND a.provider = $2"
      " ORDER BY a.created_at DESC LIMIT 1",
      {userId, provider});
  if (rows.empty()) return std::nullopt;
  return std::make_pair(rows[0].text("account_id"), rows[0].text("login"));
}

std::optional<User> Accounts::findUser(std::int64_t id) {
  auto rows = db_.exec(selectUser("u.id = $1"), {id});
  if (rows.empty()) return std::nullopt;
  return userFrom(rows[0]);
}

bool Accounts::deleteUser(std::int64_t id) {
  bool deleted = false;
  db_.transaction([&](Tx& tx) {
    // Access tokens go with the user (ON DELETE CASCADE); their sockets close like sessions'.
    auto sessions = tx.exec(
        "SELECT id FROM auth_sessions WHERE user_id = $1 AND revoked_at IS NULL"
        " UNION ALL SELECT 'pat:' || id FROM auth_access_tokens WHERE user_id = $1",
        {id});
    auto gone = tx.exec("DELETE FROM auth_users WHERE id = $1 RETURNING email", {id});
    deleted = !gone.empty();
    if (!deleted) return;
    for (auto row : sessions) docs::publishAfterCommit(events_, tx, docs::kSessionRevoked, {row.text("id"), id});
    docs::publishAfterCommit(events_, tx, docs::kUserDeleted, {id, gone[0].text("email")});
  });
  return deleted;
}

NewSession Accounts::createSession(Tx& tx, std::int64_t userId, const std::string& ip, const std::string& userAgent) {
  NewSession created;
  created.token = randomToken(32);
  auto rows =
      tx.exec(std::string("WITH s AS (INSERT INTO auth_sessions (id, token_hash, user_id, expires_at, ip, user_agent)"
                          " VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) RETURNING *) SELECT ") +
                  kSessionColumns + " FROM s",
              {randomToken(16), docs::codec::sha256Hex(created.token), userId,
               static_cast<std::int64_t>(sessionLifetime_.count()), ip, userAgent.substr(0, 512)});
  created.session = sessionFrom(rows.at(0));
  return created;
}

std::optional<std::pair<Session, User>> Accounts::findByToken(const std::string& token) {
  if (token.empty() || token.size() > 256) return std::nullopt;
  const auto lifetime = static_cast<std::int64_t>(sessionLifetime_.count());
  const auto maxAge = static_cast<std::int64_t>(sessionMaxAge_.count());
  auto rows = db_.exec(std::string("SELECT ") + kSessionColumns + ", " + kUserColumns +
                           ", s.expires_at < now() + make_interval(secs => $2) - interval '1 day'"
                           "   AND s.expires_at < s.created_at + make_interval(secs => $3) AS stale"
                           " FROM auth_sessions s JOIN auth_users u ON u.id = s.user_id"
                           " WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()"
                           " AND s.created_at > now() - make_interval(secs => $3)",
                       {docs::codec::sha256Hex(token), lifetime, maxAge});
  if (rows.empty()) return std::nullopt;
  Session session = sessionFrom(rows[0]);
  // A session in steady use is extended, at most once a day, so reads stay reads; never
  // past its absolute maximum from sign-in.
  if (rows[0].boolean("stale")) {
    auto extended = db_.exec(
        "UPDATE auth_sessions SET expires_at = least(now() + make_interval(secs => $2),"
        " created_at + make_interval(secs => $3)) WHERE id = $1"
        " RETURNING to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS e",
        {session.id, lifetime, maxAge});
    if (!extended.empty()) session.expiresAt = extended[0].text("e");
  }
  return std::make_pair(session, userFrom(rows[0]));
}

std::optional<std::pair<Session, User>> Accounts::findById(const std::string& sessionId, std::int64_t userId) {
  auto rows = db_.exec(std::string("SELECT ") + kSessionColumns + ", " + kUserColumns +
                           " FROM auth_sessions s JOIN auth_users u ON u.id = s.user_id"
                           " WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()"
                           " AND s.created_at > now() - make_interval(secs => $3)",
                       {sessionId, userId, static_cast<std::int64_t>(sessionMaxAge_.count())});
  if (rows.empty()) return std::nullopt;
  return std::make_pair(sessionFrom(rows[0]), userFrom(rows[0]));
}

bool Accounts::revokeSession(const std::string& sessionId) {
  bool revoked = false;
  db_.transaction([&](Tx& tx) {
    auto rows =
        tx.exec("UPDATE auth_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING user_id",
                {sessionId});
    revoked = !rows.empty();
    if (revoked) docs::publishAfterCommit(events_, tx, docs::kSessionRevoked, {sessionId, rows[0].int64("user_id")});
  });
  return revoked;
}

void Accounts::dropOldSessions() {
  db_.exec(
      "DELETE FROM auth_sessions WHERE expires_at < now() - interval '30 days'"
      " OR revoked_at < now() - interval '30 days'");
}

}  // namespace docs_auth
