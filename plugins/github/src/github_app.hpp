#pragma once
// The GitHub App's credentials: its JWT (RS256, signed with the app's private key, valid
// for ten minutes) and installation access tokens, cached until five minutes before
// GitHub says they expire.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <docs/services/github_access.hpp>

namespace docs::github {

struct AppSettings {
  std::string appId;
  std::string privateKeyPem;   // the key file's contents
  std::string apiUrl = "https://api.github.com";
};

// header.payload.signature with iat = now - 60 s (clock drift), exp = now + 540 s.
// Throws std::runtime_error when the key is not an RSA private key.
std::string appJwt(const std::string& appId, const std::string& privateKeyPem, std::int64_t now);

// "2026-11-22T21:00:00Z" -> seconds since the epoch; -1 when malformed.
std::int64_t parseGithubTime(const std::string& text);

class GithubApp final : public GithubAccess {
 public:
  explicit GithubApp(AppSettings settings) : settings_(std::move(settings)) {}
  bool configured() const override { return !settings_.appId.empty() && !settings_.privateKeyPem.empty(); }
  std::int64_t installationFor(std::string_view owner, std::string_view repo) override;
  std::optional<std::string> installationToken(std::int64_t installationId) override;

 private:
  struct Token {
    std::string value;
    std::int64_t expiresAt = 0;
  };
  AppSettings settings_;
  std::mutex mutex_;
  std::map<std::int64_t, Token> tokens_;
};

}  // namespace docs::github
