#pragma once
// What the GitHub App can reach, for the plugins that clone and create repository
// projects. Implemented by the github plugin; absent (or not configured) means public
// repositories only.
//
// The App is installed on whole accounts, so its reach is not the caller's: a request
// made for a person goes through installationReadableBy, which answers only about
// repositories that person may read on GitHub.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docs/http.hpp"

namespace docs {

// The topic is docs::kGithubPush (docs/topics.hpp, payload docs::GithubPush); the name
// stays for code that subscribes by string.
[[deprecated("use docs::kGithubPush from docs/topics.hpp")]] inline constexpr const char* kGithubPushEvent =
    "github.push";

class GithubAccess {
 public:
  static constexpr const char* kServiceId = "docs.github_access/2";
  virtual ~GithubAccess();

  // True when an app id and private key are configured.
  virtual bool configured() const = 0;
  // The installation of the app that can read owner/repo, 0 when there is none. For
  // background work (clones, syncs) only: it says nothing about who may read the code.
  // Throws std::runtime_error when GitHub cannot be asked (network, bad answer).
  virtual std::int64_t installationFor(std::string_view owner, std::string_view repo) = 0;
  // The installation that can read owner/repo, but only when the caller may read it too:
  // a public repository, or a private one where the GitHub account linked to the caller
  // has at least read permission. 0 otherwise, the same answer as "not installed", so a
  // caller learns nothing about repositories they cannot read.
  // Throws std::runtime_error when GitHub cannot be asked.
  virtual std::int64_t installationReadableBy(std::string_view owner, std::string_view repo,
                                              const Principal& caller) = 0;
  // A token that reads the contents of owner/repo and of no other repository of the
  // installation (cached until shortly before it expires), or nullopt when GitHub
  // refuses one.
  virtual std::optional<std::string> repositoryToken(std::int64_t installationId, std::string_view owner,
                                                     std::string_view repo) = 0;
};

}  // namespace docs
