#pragma once
// Users, their linked sign-in accounts, and server-side sessions.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace docs {
class Db;
class Tx;
class EventBus;
}  // namespace docs

namespace docs_auth {

struct User {
  std::int64_t id = 0;
  std::string email;
  std::string name;
  std::string image;
  std::optional<std::string> login;
  std::string createdAt;
  std::string updatedAt;
  nlohmann::json toJson() const;
};

struct Session {
  std::string id;
  std::int64_t userId = 0;
  std::string createdAt;
  std::string expiresAt;
  nlohmann::json toJson() const;
};

struct NewSession {
  Session session;
  std::string token;  // goes into the cookie; only its hash is stored
};

struct GithubProfile {
  std::string accountId;  // GitHub's numeric user id
  std::string login;
  std::string name;
  std::string image;
  std::string email;  // primary, verified
};

class Accounts {
 public:
  // Sessions last sessionLifetime from their last extension, and never longer than
  // sessionMaxAge from sign-in however steadily they are used.
  Accounts(docs::Db& db, docs::EventBus& events, std::chrono::seconds sessionLifetime,
           std::chrono::seconds sessionMaxAge);

  // The user with this email, created on first sign-in (publishes user.created).
  User userForEmail(docs::Tx& tx, const std::string& email);
  // The user linked to this GitHub account; links by verified email or creates one.
  User userForGithub(docs::Tx& tx, const GithubProfile& profile);
  // The provider's account id linked to the user and the user's last seen login
  // (GitHub's), nullopt when none is linked.
  std::optional<std::pair<std::string, std::string>> linkedAccount(std::int64_t userId, const std::string& provider);
  std::optional<User> findUser(std::int64_t id);
  // Deletes the user with their sessions, links and access tokens (publishes user.deleted).
  bool deleteUser(std::int64_t id);

  NewSession createSession(docs::Tx& tx, std::int64_t userId, const std::string& ip, const std::string& userAgent);
  // A live session and its user by cookie token; extends sessions in steady use.
  std::optional<std::pair<Session, User>> findByToken(const std::string& token);
  // A live session and its user by id (a JWT's sid), only if it belongs to userId.
  std::optional<std::pair<Session, User>> findById(const std::string& sessionId, std::int64_t userId);
  // Ends a session; publishes session.revoked. False if it was not live.
  bool revokeSession(const std::string& sessionId);
  // Forgets sessions expired or revoked more than 30 days ago.
  void dropOldSessions();

 private:
  docs::Db& db_;
  docs::EventBus& events_;
  std::chrono::seconds sessionLifetime_;
  std::chrono::seconds sessionMaxAge_;
};

}  // namespace docs_auth
