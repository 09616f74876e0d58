#pragma once
// The GitHub App's credentials: its JWT (RS256, signed with the app's private key, valid
// for ten minutes) and installation access tokens narrowed to one repository and to
// reading it, cached until five minutes before GitHub says they expire; and whether a
// person may read a repository the App can reach (public, or their linked GitHub account
// is a collaborator).

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <docs/services/github_access.hpp>
#include <docs/services/linked_accounts.hpp>

namespace docs_github {

struct AppSettings {
  std::string appId;
  std::string privateKeyPem;  // the key file's contents
  std::string apiUrl = "https://api.github.com";
};

// header.payload.signature with iat = now - 60 s (clock drift), exp = now + 540 s.
// Throws std::runtime_error when the key is not an RSA private key.
std::string appJwt(const std::string& appId, const std::string& privateKeyPem, std::int64_t now);

// "2026-11-22T21:00:00Z" -> seconds since the epoch; -1 when malformed.
std::int64_t parseGithubTime(const std::string& text);

// True for a GitHub login as GitHub allows them (letters, digits, single hyphens, 1-39).
bool validGithubLogin(std::string_view login);

// The caller's linked GitHub account (the auth plugin's LinkedAccounts), nullopt when none.
using GithubAccountOf = std::function<std::optional<docs::LinkedAccounts::Account>(const docs::Principal&)>;

class GithubApp final : public docs::GithubAccess {
 public:
  GithubApp(AppSettings settings, GithubAccountOf accountOf)
      : settings_(std::move(settings)), accountOf_(std::move(accountOf)) {}
  // The key file's contents, read by the plugin's start() (before it the App is not configured).
  void setPrivateKey(std::string pem) { settings_.privateKeyPem = std::move(pem); }
  bool configured() const override { return !settings_.appId.empty() && !settings_.privateKeyPem.empty(); }
  std::int64_t installationFor(std::string_view owner, std::string_view repo) override;
  std::int64_t installationReadableBy(std::string_view owner, std::string_view repo,
                                      const docs::Principal& caller) override;
  std::optional<std::string> repositoryToken(std::int64_t installationId, std::string_view owner,
                                             std::string_view repo) override;

 private:
  struct Token {
    std::string value;
    std::int64_t expiresAt = 0;
  };
  // True when GitHub says the linked account has at least read permission on owner/repo.
  bool collaboratorCanRead(std::string_view owner, std::string_view repo, const std::string& token,
                           const docs::LinkedAccounts::Account& account);

  AppSettings settings_;
  GithubAccountOf accountOf_;
  std::mutex mutex_;
  std::map<std::string, Token> tokens_;  // "installation owner/repo" -> token
};

}  // namespace docs_github
