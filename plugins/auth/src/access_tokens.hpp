#pragma once
// Personal access tokens: `docs_pat_` + 256 random bits (base64url), shown once; only
// the SHA-256 is stored. A token acts as its owner, read-only unless its scope is write.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace docs {
class Db;
class EventBus;
}  // namespace docs

namespace docs_auth {

inline constexpr std::string_view kAccessTokenPrefix = "docs_pat_";
inline constexpr int kMaxTokensPerUser = 50;
inline constexpr int kMaxTokenNameChars = 100;
inline constexpr int kMaxTokenDays = 3650;

struct AccessToken {
  std::int64_t id = 0;
  std::int64_t userId = 0;
  std::string name;
  std::string scope;      // read | write
  std::string createdAt;  // ISO 8601, UTC
  std::optional<std::string> expiresAt;
  std::optional<std::string> lastUsedAt;
  bool writes() const { return scope == "write"; }
  // The principal's session id for a token: collab closes its sockets on revocation.
  std::string sessionId() const { return "pat:" + std::to_string(id); }
  nlohmann::json toJson() const;
};

struct NewAccessToken {
  AccessToken token;
  std::string secret;  // the value the caller sends; never stored
};

// Whether a bearer value claims to be an access token (then it is never read as a JWT).
bool looksLikeAccessToken(std::string_view bearer);
// The exact shape: the prefix and 43 base64url characters.
bool wellFormedAccessToken(std::string_view bearer);

class AccessTokens {
 public:
  AccessTokens(docs::Db& db, docs::EventBus& events);

  // Throws HttpError 400 past kMaxTokensPerUser.
  NewAccessToken create(std::int64_t userId, const std::string& name, std::optional<int> expiresInDays,
                        const std::string& scope);
  std::vector<AccessToken> list(std::int64_t userId);
  // Deletes the user's token (publishes session.revoked); false when it is not theirs.
  bool revoke(std::int64_t userId, std::int64_t tokenId);
  // The live (unexpired) token with this value; notes its use at most once a minute.
  std::optional<AccessToken> find(std::string_view secret);

 private:
  docs::Db& db_;
  docs::EventBus& events_;
};

}  // namespace docs_auth
