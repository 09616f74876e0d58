#pragma once
// The spec's project rules that need no database: statuses and their badge order, names,
// descriptions, languages and repository URLs.

#include <optional>
#include <string>
#include <string_view>

namespace docs_projects {

inline constexpr std::size_t kMaxNameLength = 120;          // the inline editor's limit
inline constexpr std::size_t kMaxDescriptionLength = 1000;  // room for a repository's own description
inline constexpr const char* kDefaultDescription = "No description";
inline constexpr std::uint64_t kMaxZipBytes = 104857600;  // "under 100 MB"

// Stored status text, through the SDK's table (docs/project_status.hpp).
bool isKnownStatus(std::string_view status);
// The list's sort key: Up to date 1, Updating 2, In Progress 3, Partially Generated 4,
// Failed 5; an unknown status sorts last (6).
int statusSortOrder(std::string_view status);

// Trims and collapses runs of whitespace (control characters count as whitespace).
std::string collapseWhitespace(std::string_view text);
// A project name from a create call: required and at most kMaxNameLength; else 400.
std::string validNewName(std::string_view raw);
// A rename: nullopt when the name is empty after trimming (the rename is ignored).
std::optional<std::string> validRename(std::string_view raw);
// A description: empty becomes "No description"; too long is a 400.
std::string validDescription(std::string_view raw);
// en, ru or de; absent means en.
std::string validLanguage(const std::optional<std::string>& raw);

struct Repository {
  std::string owner;
  std::string name;
  // Its address on the configured GitHub (github.url).
  std::string url(const std::string& base = "https://github.com") const { return base + "/" + owner + "/" + name; }
};
// A repository owner or name: letters, digits, '-', '_', '.'; 1 to 100 characters.
bool validRepositoryPart(std::string_view part);
// "github.com/o/r", "https://github.com/o/r.git", "http://www.github.com/o/r/tree/x" -> o/r.
// `configuredBase` (github.url) adds its host to github.com's.
std::optional<Repository> parseGitUrl(std::string_view url, std::string_view configuredBase = "");

}  // namespace docs_projects
