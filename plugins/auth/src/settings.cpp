#include "settings.hpp"

#include <docs/config.hpp>
#include <docs/config_keys.hpp>
#include <docs/registry.hpp>

namespace docs_auth {

using docs::Config;
using docs::Registry;

void AuthSettings::declareKeys(Registry& r) {
  r.configKey("auth.jwt_ttl_seconds", "900",
              "Lifetime of the JWTs get-session hands out (the SPA refreshes 120 s before expiry).");
  r.configKey("auth.session_ttl_days", "30",
              "Lifetime of a session; each use within the last day of its first day extends it.");
  r.configKey(
      "auth.session_max_days", "90",
      "Absolute maximum age of a session from sign-in: steady use extends it no further (>= session_ttl_days).");
  r.configKey("auth.jwt_issuer", "",
              "The JWTs' iss claim, checked on every token (empty: server.public_url, else \"docsd\").");
  r.configKey("auth.jwt_audience", "docsd", "The JWTs' aud claim, checked on every token.");
  r.configKey("auth.key_rotation_days", "30",
              "Age at which the JWT signing key is replaced (the old key verifies until its tokens expire).");
  r.configKey("auth.otp_ttl_seconds", "600", "How long an emailed one-time code is valid.");
  r.configKey("auth.otp_max_attempts", "5", "Wrong tries allowed per one-time code before it is burnt.");
  r.configKey("auth.otp_sends_per_email", "5",
              "One-time codes sent to one email from one client (IPv4 address, IPv6 /64) per window.");
  r.configKey("auth.otp_sends_per_email_total", "30",
              "One-time codes sent to one email from all clients together per window.");
  r.configKey("auth.otp_sends_per_address", "20",
              "One-time codes requested from one client (IPv4 address, IPv6 /64) per window.");
  r.configKey("auth.otp_send_window_seconds", "3600", "The window of the send limits.");
  r.configKey("auth.magic_link_ttl_seconds", "600",
              "How long the single-use sign-in link mailed with each code works.");
  r.configKey("auth.delete_code_ttl_seconds", "300", "How long the code that confirms deleting an account works.");
  r.configKey("auth.failures_per_address_per_day", "30",
              "Failed sign-in tries (wrong codes, unknown links) from one client (IPv4 address, IPv6 /64) per failure "
              "window; past it 429.");
  r.configKey("auth.failures_per_account_per_day", "10",
              "Wrong codes for one email per failure window; past it codes are refused (429) and only the mailed link "
              "signs in.");
  r.configKey("auth.failure_backoff_after", "5",
              "Failures per client or account in the window before each further try must wait.");
  r.configKey("auth.failure_backoff_seconds", "2",
              "The first wait past failure_backoff_after; it doubles with each further failure (at most the window).");
  r.configKey("auth.failure_window_seconds", "86400", "The window of the failure caps and the back-off.");
  r.configKey("auth.secret", "",
              "HMAC key for one-time codes and OAuth state (empty: generated once and kept in the database).");
  r.configKey("smtp.url", "",
              "smtp://[user[:password]@]host[:port] or smtps://... to send mail (empty: write .eml files to "
              "$DOCS_DATA_DIR/outbox).");
  r.configKey("smtp.from", "docs <no-reply@localhost>", "Sender of sign-in mail.");
  r.configKey("smtp.timeout_ms", "10000", "SMTP connect and reply timeout.");
  r.configKey("smtp.verify_tls", "true", "Verify the SMTP server's TLS certificate.");
  r.configKey("smtp.require_tls", "false",
              "Send mail only over TLS: an smtp:// server that offers no STARTTLS gets nothing (the call answers 503 "
              "mail_tls_unavailable).");
  r.configKey("github.client_id", "",
              "GitHub OAuth (or GitHub App) client id for sign-in (empty: GitHub sign-in is off).");
  r.configKey("github.client_secret", "", "GitHub OAuth client secret.");
  docs::declare(r, docs::kGithubUrl);
  r.configKey("github.api_url", "https://api.github.com",
              "GitHub REST API base URL (GitHub Enterprise: https://ghe.example.com/api/v3).");
}

AuthSettings AuthSettings::read(const Config& c) {
  auto trimSlash = [](std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
  };
  AuthSettings s;
  s.jwtLifetime = std::chrono::seconds(c.getInt("auth.jwt_ttl_seconds"));
  s.sessionLifetime = std::chrono::seconds(c.getInt("auth.session_ttl_days") * 86400);
  s.sessionMaxAge = std::chrono::seconds(c.getInt("auth.session_max_days") * 86400);
  s.keyRotationAge = std::chrono::seconds(c.getInt("auth.key_rotation_days") * 86400);
  s.otpLifetime = std::chrono::seconds(c.getInt("auth.otp_ttl_seconds"));
  s.otpMaxAttempts = static_cast<int>(c.getInt("auth.otp_max_attempts"));
  s.otpSendsPerEmail = static_cast<int>(c.getInt("auth.otp_sends_per_email"));
  s.otpSendsPerAddress = static_cast<int>(c.getInt("auth.otp_sends_per_address"));
  s.otpSendWindow = std::chrono::seconds(c.getInt("auth.otp_send_window_seconds"));
  s.otpSendsPerEmailTotal = static_cast<int>(c.getInt("auth.otp_sends_per_email_total"));
  s.magicLinkLifetime = std::chrono::seconds(c.getInt("auth.magic_link_ttl_seconds"));
  s.deleteCodeLifetime = std::chrono::seconds(c.getInt("auth.delete_code_ttl_seconds"));
  s.failuresPerAddressPerDay = static_cast<int>(c.getInt("auth.failures_per_address_per_day"));
  s.failuresPerAccountPerDay = static_cast<int>(c.getInt("auth.failures_per_account_per_day"));
  s.failureBackoffAfter = static_cast<int>(c.getInt("auth.failure_backoff_after"));
  s.failureBackoffBase = std::chrono::seconds(c.getInt("auth.failure_backoff_seconds"));
  s.failureWindow = std::chrono::seconds(c.getInt("auth.failure_window_seconds"));
  s.secret = c.getString("auth.secret");
  s.publicUrl = trimSlash(c.getString("server.public_url"));
  s.jwtIssuer = c.getString("auth.jwt_issuer");
  if (s.jwtIssuer.empty()) s.jwtIssuer = s.publicUrl.empty() ? "docsd" : s.publicUrl;
  s.jwtAudience = c.getString("auth.jwt_audience");
  for (auto& origin : c.getList("server.allowed_origins")) s.allowedOrigins.push_back(trimSlash(origin));
  s.subhosts = c.getBool("server.subhosts");
  s.smtpUrl = c.getString("smtp.url");
  s.smtpFrom = c.getString("smtp.from");
  s.smtpTimeoutMs = static_cast<int>(c.getInt("smtp.timeout_ms"));
  s.smtpVerifyTls = c.getBool("smtp.verify_tls");
  s.smtpRequireTls = c.getBool("smtp.require_tls");
  s.githubClientId = c.getString("github.client_id");
  s.githubClientSecret = c.getString("github.client_secret");
  s.githubUrl = trimSlash(c.getString(docs::kGithubUrl.key));
  s.githubApiUrl = trimSlash(c.getString("github.api_url"));
  if (s.jwtLifetime.count() < 30 || s.sessionLifetime.count() < 3600 || s.otpLifetime.count() < 30 ||
      s.otpMaxAttempts < 1 || s.keyRotationAge <= s.jwtLifetime || s.sessionMaxAge < s.sessionLifetime)
    throw std::invalid_argument(
        "auth: lifetimes are out of range (jwt >= 30 s, session_ttl_days >= 1, otp >= 30 s, rotation > jwt, "
        "session_max_days >= session_ttl_days)");
  if (s.jwtAudience.empty()) throw std::invalid_argument("auth.jwt_audience must not be empty");
  if (s.magicLinkLifetime.count() < 30 || s.deleteCodeLifetime.count() < 30 || s.failureWindow.count() < 60 ||
      s.failuresPerAddressPerDay < 1 || s.failuresPerAccountPerDay < 1 || s.failureBackoffAfter < 0 ||
      s.failureBackoffBase.count() < 0)
    throw std::invalid_argument(
        "auth: sign-in limits are out of range (link and delete code >= 30 s, failure window >= 60 s, caps >= 1)");
  return s;
}

}  // namespace docs_auth
