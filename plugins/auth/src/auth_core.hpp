#pragma once
// The auth plugin's parts wired together (in configure(), no I/O), their I/O at start
// (open), and the Authenticator other plugins use: a bearer JWT or the session cookie ->
// a principal.

#include <docs/http.hpp>
#include <docs/services/authenticator.hpp>

#include <memory>
#include <optional>
#include <string>

#include "access_tokens.hpp"
#include "accounts.hpp"
#include "auth_metrics.hpp"
#include "github_sign_in.hpp"
#include "mailer.hpp"
#include "one_time_codes.hpp"
#include "settings.hpp"
#include "sign_in_limits.hpp"
#include "signing_keys.hpp"

namespace docs {
class Context;
}

namespace docs_auth {

struct SignedInSession {
  Session session;
  User user;
  // Set when the caller sent a personal access token instead of a session's JWT or cookie.
  std::optional<AccessToken> token;
};

class AuthCore final : public docs::Authenticator {
 public:
  // Builds the parts; reads nothing, so `docsd help` may build it.
  AuthCore(docs::Context& context, AuthSettings settings);
  // At start: warns about an insecure mail set-up, loads (or makes) the HMAC secret and
  // makes sure a signing key exists. Before any request, job or periodic task.
  void open();

  const AuthSettings& settings() const { return settings_; }
  Accounts& accounts() { return *accounts_; }
  OneTimeCodes& codes() { return *codes_; }
  SignInLimits& limits() { return *limits_; }
  GithubSignIn& github() { return *github_; }
  SigningKeys& keys() { return *keys_; }
  AccessTokens& tokens() { return *tokens_; }
  Mailer& mailer() { return *mailer_; }
  docs::Context& context() { return context_; }

  // The caller's session: from a bearer JWT or access token if one is sent (an invalid
  // one is a 401), else from the session cookie (an invalid cookie is simply no session).
  std::optional<SignedInSession> resolve(const docs::Request& request);
  // The same, for routes a personal access token may not use (token management, account
  // deletion, minting JWTs): a token is a 403.
  std::optional<SignedInSession> resolveSession(const docs::Request& request);
  // The session cookie's session alone, whatever bearer the request carries.
  std::optional<SignedInSession> cookieSession(const docs::Request& request);
  // A JWT for the session, with this deployment as issuer and audience.
  std::string issueJwt(const User& user, const Session& session);
  // Counters of sign-ins and codes sent (docs/metrics.md).
  AuthMetrics& metrics() { return metrics_; }

  std::optional<docs::Principal> authenticate(const docs::Request& request) override;
  std::optional<docs::Principal> authenticateToken(std::string_view token) override;

 private:
  // The session a valid JWT names, if it and its user still exist; error text otherwise.
  std::optional<SignedInSession> sessionForJwt(std::string_view token, std::string& error);
  // The owner of a live access token, or error text.
  std::optional<SignedInSession> sessionForAccessToken(std::string_view token, std::string& error);
  // Either kind of bearer credential.
  std::optional<SignedInSession> sessionForBearer(std::string_view token, std::string& error);
  std::string loadSecret();

  docs::Context& context_;
  AuthSettings settings_;
  std::string secret_;  // the HMAC key of codes and OAuth states; set by open()
  AuthMetrics metrics_;
  std::unique_ptr<SigningKeys> keys_;
  std::unique_ptr<Accounts> accounts_;
  std::unique_ptr<Mailer> mailer_;
  std::unique_ptr<OneTimeCodes> codes_;
  std::unique_ptr<SignInLimits> limits_;
  std::unique_ptr<GithubSignIn> github_;
  std::unique_ptr<AccessTokens> tokens_;
};

// The value of one cookie in a Cookie header, or "".
std::string cookieValue(const docs::Request& request, std::string_view name);
docs::Principal principalOf(const SignedInSession& signedIn);

}  // namespace docs_auth
