#pragma once
// What the GitHub App can reach, for the plugins that clone and create repository
// projects. Implemented by the github plugin; absent (or not configured) means public
// repositories only.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docs {

inline constexpr const char* kGithubPushEvent = "github.push";  // {project_id, after, ref}

class GithubAccess {
 public:
  static constexpr const char* kServiceId = "docs.github_access/1";
  virtual ~GithubAccess();

  // True when an app id and private key are configured.
  virtual bool configured() const = 0;
  // The installation of the app that can read owner/repo, 0 when there is none.
  // Throws std::runtime_error when GitHub cannot be asked (network, bad answer).
  virtual std::int64_t installationFor(std::string_view owner, std::string_view repo) = 0;
  // A token for cloning with that installation (cached until shortly before it expires),
  // or nullopt when GitHub refuses one.
  virtual std::optional<std::string> installationToken(std::int64_t installationId) = 0;
};

}  // namespace docs
