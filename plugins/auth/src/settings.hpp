#pragma once
// The auth plugin's configuration, read once in configure().

#include <chrono>
#include <string>
#include <vector>

namespace docs {
class Config;
class Registry;
}  // namespace docs

namespace docs_auth {

struct AuthSettings {
  std::chrono::seconds jwtLifetime{900};
  std::chrono::seconds sessionLifetime{30 * 86400};
  std::chrono::seconds sessionMaxAge{90 * 86400};  // from sign-in, whatever the sliding
  std::chrono::seconds keyRotationAge{30 * 86400};
  std::chrono::seconds otpLifetime{600};
  int otpMaxAttempts = 5;
  int otpSendsPerEmail = 5;
  int otpSendsPerAddress = 20;
  std::chrono::seconds otpSendWindow{3600};
  int otpSendsPerEmailTotal = 30;  // to one email from every client together
  std::chrono::seconds magicLinkLifetime{600};
  std::chrono::seconds deleteCodeLifetime{300};
  int failuresPerAddressPerDay = 30;  // per client key (IPv4 address, IPv6 /64)
  int failuresPerAccountPerDay = 10;  // per email
  int failureBackoffAfter = 5;        // failures in the window before the back-off starts
  std::chrono::seconds failureBackoffBase{2};
  std::chrono::seconds failureWindow{86400};
  std::string secret;       // empty: generated and kept in the database
  std::string jwtIssuer;    // auth.jwt_issuer, else server.public_url, else "docsd"
  std::string jwtAudience;  // auth.jwt_audience ("docsd")

  std::string publicUrl;                    // server.public_url, no trailing slash
  std::vector<std::string> allowedOrigins;  // server.allowed_origins
  bool subhosts = false;

  std::string smtpUrl;
  std::string smtpFrom;
  int smtpTimeoutMs = 10000;
  bool smtpVerifyTls = true;
  bool smtpRequireTls = false;

  std::string githubClientId;
  std::string githubClientSecret;
  std::string githubUrl;     // https://github.com
  std::string githubApiUrl;  // https://api.github.com

  static void declareKeys(docs::Registry& registry);
  static AuthSettings read(const docs::Config& config);
};

inline constexpr const char* kSessionCookie = "docs_session";
inline constexpr const char* kOAuthStateCookie = "docs_oauth_state";

}  // namespace docs_auth
