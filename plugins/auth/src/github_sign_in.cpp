#include "github_sign_in.hpp"

#include <docs/db.hpp>

#include <nlohmann/json.hpp>

#include <stdexcept>

#include <docs/support/http_client.hpp>
#include "crypto.hpp"
#include "one_time_codes.hpp"

namespace docs_auth {

using docs::Db;

using docs::support::httpCall;
using docs::support::HttpCall;

using nlohmann::json;

GithubSignIn::GithubSignIn(Db& db, const AuthSettings& settings, const std::string& secret)
    : db_(db), settings_(settings), secret_(secret) {}

const std::string& GithubSignIn::key() const {
  // An empty key would sign every state with "": refuse instead.
  if (secret_.empty()) throw std::logic_error("GitHub sign-in used before AuthCore::open() loaded the HMAC secret");
  return secret_;
}

std::string GithubSignIn::sign(const std::string& nonce) const {
  return docs::codec::base64UrlEncode(docs::codec::hmacSha256(key(), "oauth-state:" + nonce));
}

AuthorizeStart GithubSignIn::start(const std::string& callbackUrl, const std::string& redirectUri) {
  AuthorizeStart started;
  key();  // before a state row is written
  started.nonce = randomToken(24);
  db_.exec(
      "INSERT INTO auth_oauth_states (nonce, provider, callback_url, redirect_uri, expires_at)"
      " VALUES ($1, 'github', $2, $3, now() + interval '10 minutes')",
      {started.nonce, callbackUrl, redirectUri});
  db_.exec("DELETE FROM auth_oauth_states WHERE expires_at < now() - interval '1 day'");
  std::string state = started.nonce + "." + sign(started.nonce);
  started.url = settings_.githubUrl +
                "/login/oauth/authorize?client_id=" + docs::codec::percentEncode(settings_.githubClientId) +
                "&redirect_uri=" + docs::codec::percentEncode(redirectUri) +
                "&scope=" + docs::codec::percentEncode("read:user user:email") +
                "&state=" + docs::codec::percentEncode(state) + "&allow_signup=true";
  return started;
}

std::optional<PendingSignIn> GithubSignIn::consumeState(const std::string& state, const std::string& cookieNonce) {
  auto dot = state.find('.');
  if (dot == std::string::npos || state.size() > 256) return std::nullopt;
  std::string nonce = state.substr(0, dot);
  if (!docs::codec::constantTimeEqual(sign(nonce), state.substr(dot + 1))) return std::nullopt;
  // The browser that started the flow carries the nonce in a cookie: a state planted
  // in someone else's browser does not sign them in.
  if (!docs::codec::constantTimeEqual(nonce, cookieNonce)) return std::nullopt;
  auto rows = db_.exec(
      "UPDATE auth_oauth_states SET used_at = now()"
      " WHERE nonce = $1 AND used_at IS NULL AND expires_at > now() RETURNING callback_url, redirect_uri",
      {nonce});
  if (rows.empty()) return std::nullopt;
  return PendingSignIn{rows[0].text("callback_url"), rows[0].text("redirect_uri")};
}

std::optional<GithubProfile> GithubSignIn::fetchProfile(const std::string& code, const std::string& redirectUri,
                                                        std::string& error) {
  HttpCall exchange;
  exchange.method = "POST";
  exchange.url = settings_.githubUrl + "/login/oauth/access_token";
  exchange.headers = {{"Accept", "application/json"}, {"Content-Type", "application/x-www-form-urlencoded"}};
  exchange.body = "client_id=" + docs::codec::percentEncode(settings_.githubClientId) +
                  "&client_secret=" + docs::codec::percentEncode(settings_.githubClientSecret) +
                  "&code=" + docs::codec::percentEncode(code) +
                  "&redirect_uri=" + docs::codec::percentEncode(redirectUri);
  auto reply = httpCall(exchange);
  json token = json::parse(reply.body, nullptr, false);
  if (reply.status != 200 || !token.is_object() || !token.contains("access_token") ||
      !token["access_token"].is_string()) {
    error = reply.status == 0 ? "GitHub is unreachable: " + reply.error : "GitHub refused the sign-in code";
    return std::nullopt;
  }
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Accept", "application/vnd.github+json"},
      {"Authorization", "Bearer " + token["access_token"].get<std::string>()},
      {"X-GitHub-Api-Version", "2022-11-28"}};

  auto userReply = httpCall({"GET", settings_.githubApiUrl + "/user", headers, "", std::chrono::milliseconds(10000)});
  json user = json::parse(userReply.body, nullptr, false);
  if (userReply.status != 200 || !user.is_object() || !user.contains("id") || !user["id"].is_number_integer()) {
    error = "GitHub did not return the user";
    return std::nullopt;
  }
  auto emailsReply =
      httpCall({"GET", settings_.githubApiUrl + "/user/emails", headers, "", std::chrono::milliseconds(10000)});
  json emails = json::parse(emailsReply.body, nullptr, false);
  std::string email;
  if (emailsReply.status == 200 && emails.is_array()) {
    for (const auto& entry : emails) {
      if (entry.is_object() && entry.value("primary", false) && entry.value("verified", false) &&
          entry.contains("email") && entry["email"].is_string())
        email = normalizeEmail(entry["email"].get<std::string>());
    }
  }
  if (email.empty()) {
    error = "The GitHub account has no verified primary email";
    return std::nullopt;
  }
  auto text = [&](const char* key) {
    return user.contains(key) && user[key].is_string() ? user[key].get<std::string>() : std::string();
  };
  return GithubProfile{std::to_string(user["id"].get<std::int64_t>()), text("login"), text("name"), text("avatar_url"),
                       email};
}

}  // namespace docs_auth
