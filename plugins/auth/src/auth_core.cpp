#include "auth_core.hpp"

#include <docs/config.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>

#include <strings.h>
#include <chrono>
#include <filesystem>

#include "crypto.hpp"
#include "jwt.hpp"

namespace docs_auth {

using docs::Context;
using docs::Db;
using docs::HttpError;
using docs::Method;
using docs::Principal;
using docs::Request;

namespace {

std::int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string cookieValue(const Request& request, std::string_view name) {
  for (const auto& [header, value] : request.headers()) {
    if (header.size() != 6 || strncasecmp(header.c_str(), "cookie", 6) != 0) continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      auto end = rest.find(';');
      std::string_view pair = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      auto eq = pair.find('=');
      if (eq != std::string_view::npos && pair.substr(0, eq) == name) return std::string(pair.substr(eq + 1));
    }
  }
  return "";
}

Principal principalOf(const SignedInSession& signedIn) {
  Principal principal{std::to_string(signedIn.user.id), signedIn.user.email, signedIn.user.name, signedIn.session.id};
  principal.readOnly = signedIn.token && !signedIn.token->writes();
  return principal;
}

AuthCore::AuthCore(Context& context, AuthSettings settings)
    : context_(context), settings_(std::move(settings)), metrics_(context.metrics()) {
  Db& db = context_.db();
  keys_ = std::make_unique<SigningKeys>(db, settings_.jwtLifetime, settings_.keyRotationAge);
  accounts_ = std::make_unique<Accounts>(db, context_.events(), settings_.sessionLifetime, settings_.sessionMaxAge);
  MailerSettings mail{
      settings_.smtpUrl,       settings_.smtpFrom,      (std::filesystem::path(context_.dataDir()) / "outbox").string(),
      settings_.smtpTimeoutMs, settings_.smtpVerifyTls, settings_.smtpRequireTls};
  mailer_ = std::make_unique<Mailer>(std::move(mail), context_.logger());
  codes_ = std::make_unique<OneTimeCodes>(db, *mailer_, settings_, secret_);
  limits_ = std::make_unique<SignInLimits>(db, settings_);
  github_ = std::make_unique<GithubSignIn>(db, settings_, secret_);
  tokens_ = std::make_unique<AccessTokens>(db, context_.events());
}

void AuthCore::open() {
  if (mailer_->usesOutbox() && context_.config().getString("server.mode") == "production")
    context_.logger().warn(
        "smtp.url is empty: sign-in codes are written to files in the outbox, not mailed; set smtp.url "
        "before anyone else signs in",
        {{"outbox", (std::filesystem::path(context_.dataDir()) / "outbox").string()}});
  if (settings_.smtpUrl.rfind("smtp://", 0) == 0 && !settings_.smtpRequireTls &&
      context_.config().getString("server.mode") == "production")
    context_.logger().warn(
        "smtp.require_tls is false: sign-in codes and links go in clear to a mail server that offers "
        "no STARTTLS; set smtp.require_tls=true");
  secret_ = loadSecret();
  keys_->current();
}

std::string AuthCore::loadSecret() {
  if (!settings_.secret.empty()) return settings_.secret;
  context_.db().exec("INSERT INTO auth_secrets (name, value) VALUES ('hmac', $1) ON CONFLICT (name) DO NOTHING",
                     {randomToken(32)});
  return context_.db().exec("SELECT value FROM auth_secrets WHERE name = 'hmac'").at(0).text("value");
}

std::string AuthCore::issueJwt(const User& user, const Session& session) {
  auto key = keys_->current();
  std::int64_t now = nowSeconds();
  nlohmann::json claims = {{"sub", std::to_string(user.id)},
                           {"email", user.email},
                           {"name", user.name},
                           {"sid", session.id},
                           {"iat", now},
                           {"exp", now + settings_.jwtLifetime.count()},
                           {"iss", settings_.jwtIssuer},
                           {"aud", settings_.jwtAudience}};
  return signJwt(claims, key.kid, key.privateKey);
}

std::optional<SignedInSession> AuthCore::sessionForJwt(std::string_view token, std::string& error) {
  auto verified = verifyJwt(token, [this](const std::string& kid) { return keys_->publicKey(kid); }, nowSeconds(),
                            {settings_.jwtIssuer, settings_.jwtAudience});
  if (!verified.claims) {
    error = std::string(describe(verified.error));
    return std::nullopt;
  }
  const auto& claims = *verified.claims;
  if (!claims.contains("sub") || !claims["sub"].is_string() || !claims.contains("sid") || !claims["sid"].is_string()) {
    error = "token without subject or session";
    return std::nullopt;
  }
  std::int64_t userId = 0;
  try {
    userId = std::stoll(claims["sub"].get<std::string>());
  } catch (const std::exception&) {
    error = "token with a malformed subject";
    return std::nullopt;
  }
  // Signed-out sessions and deleted users end their tokens at once, not at expiry.
  auto found = accounts_->findById(claims["sid"].get<std::string>(), userId);
  if (!found) {
    error = "the token's session has ended";
    return std::nullopt;
  }
  return SignedInSession{found->first, found->second, std::nullopt};
}

std::optional<SignedInSession> AuthCore::sessionForAccessToken(std::string_view token, std::string& error) {
  if (!wellFormedAccessToken(token)) {
    error = "malformed access token";
    return std::nullopt;
  }
  auto found = tokens_->find(token);
  auto user = found ? accounts_->findUser(found->userId) : std::nullopt;
  if (!user) {
    error = "unknown, revoked or expired access token";
    return std::nullopt;
  }
  Session session{found->sessionId(), user->id, found->createdAt, found->expiresAt.value_or("")};
  return SignedInSession{std::move(session), std::move(*user), std::move(found)};
}

std::optional<SignedInSession> AuthCore::sessionForBearer(std::string_view token, std::string& error) {
  return looksLikeAccessToken(token) ? sessionForAccessToken(token, error) : sessionForJwt(token, error);
}

std::optional<SignedInSession> AuthCore::resolve(const Request& request) {
  if (auto authorization = request.header("Authorization")) {
    std::string_view value = *authorization;
    if (value.size() > 7 && strncasecmp(value.data(), "Bearer ", 7) == 0) {
      std::string error;
      auto signedIn = sessionForBearer(value.substr(7), error);
      if (!signedIn) throw HttpError(401, "invalid_token", "Not Authorized: " + error);
      return signedIn;
    }
  }
  return cookieSession(request);
}

std::optional<SignedInSession> AuthCore::resolveSession(const Request& request) {
  auto signedIn = resolve(request);
  if (signedIn && signedIn->token)
    throw HttpError(403, "token_not_allowed",
                    "An access token cannot manage access tokens, mint session tokens or delete the account; sign in");
  return signedIn;
}

std::optional<SignedInSession> AuthCore::cookieSession(const Request& request) {
  std::string token = cookieValue(request, kSessionCookie);
  if (token.empty()) return std::nullopt;
  auto found = accounts_->findByToken(token);
  if (!found) return std::nullopt;
  return SignedInSession{found->first, found->second, std::nullopt};
}

std::optional<Principal> AuthCore::authenticate(const Request& request) {
  auto signedIn = resolve(request);
  if (!signedIn) return std::nullopt;
  // The one place a read-only token's scope is enforced for HTTP: every route that asks
  // for its caller gets this answer for a write, whatever the route.
  if (signedIn->token && !signedIn->token->writes() && request.method() != Method::Get &&
      request.method() != Method::Head)
    throw HttpError(403, "read_only_token",
                    "This access token may only read (GET and HEAD); create one with scope write");
  return principalOf(*signedIn);
}

std::optional<Principal> AuthCore::authenticateToken(std::string_view token) {
  std::string error;
  auto signedIn = sessionForBearer(token, error);
  if (!signedIn) return std::nullopt;
  return principalOf(*signedIn);
}

}  // namespace docs_auth
