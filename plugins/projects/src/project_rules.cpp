#include "project_rules.hpp"

#include <cstdint>

#include <docs/http.hpp>
#include <docs/project_status.hpp>

#include <docs/support/body_fields.hpp>

namespace docs_projects {

using namespace docs::support;

namespace {

bool isSpaceLike(unsigned char c) { return c <= ' ' || c == 0x7f; }

std::string lowerAscii(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

bool isKnownStatus(std::string_view status) { return statusSortOrder(status) != 6; }

int statusSortOrder(std::string_view status) {
  auto known = docs::parseProjectStatus(status);
  return known ? docs::sortOrder(*known) : 6;
}

std::string collapseWhitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool pendingSpace = false;
  for (char c : text) {
    if (isSpaceLike(static_cast<unsigned char>(c))) {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace) out.push_back(' ');
    pendingSpace = false;
    out.push_back(c);
  }
  return out;
}

std::string validNewName(std::string_view raw) {
  std::string name = collapseWhitespace(raw);
  if (name.empty()) throw docs::HttpError::badRequest("Project name is required", "invalid_field");
  if (codePoints(name) > kMaxNameLength)
    throw docs::HttpError::badRequest("Project name must be at most 120 characters", "invalid_field");
  return name;
}

std::optional<std::string> validRename(std::string_view raw) {
  std::string name = collapseWhitespace(raw);
  if (name.empty()) return std::nullopt;
  if (codePoints(name) > kMaxNameLength)
    throw docs::HttpError::badRequest("Project name must be at most 120 characters", "invalid_field");
  return name;
}

std::string validDescription(std::string_view raw) {
  std::string description = collapseWhitespace(raw);
  if (description.empty()) return kDefaultDescription;
  if (codePoints(description) > kMaxDescriptionLength)
    throw docs::HttpError::badRequest("Description must be at most 1000 characters", "invalid_field");
  return description;
}

std::string validLanguage(const std::optional<std::string>& raw) {
  if (!raw) return "en";
  if (*raw == "en" || *raw == "ru" || *raw == "de") return *raw;
  throw docs::HttpError::badRequest("'language' must be en, ru or de", "invalid_field");
}

bool validRepositoryPart(std::string_view part) {
  if (part.empty() || part.size() > 100 || part == "." || part == "..") return false;
  for (char c : part) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<Repository> parseGitUrl(std::string_view url, std::string_view configuredBase) {
  std::string text = collapseWhitespace(url);
  std::string_view rest = text;
  for (std::string_view scheme : {"https://", "http://"})
    if (lowerAscii(rest.substr(0, scheme.size())) == scheme) rest.remove_prefix(scheme.size());
  // The configured GitHub's host (GitHub Enterprise, tests) is as good as github.com.
  std::string configured(configuredBase);
  if (auto scheme = configured.find("://"); scheme != std::string::npos) configured = configured.substr(scheme + 3);
  while (!configured.empty() && configured.back() == '/') configured.pop_back();
  configured = lowerAscii(configured) + "/";
  for (std::string_view host :
       {std::string_view("www.github.com/"), std::string_view("github.com/"), std::string_view(configured)}) {
    if (host.size() <= 1) continue;
    if (rest.size() >= host.size() && lowerAscii(rest.substr(0, host.size())) == host) {
      rest.remove_prefix(host.size());
      auto slash = rest.find('/');
      if (slash == std::string_view::npos) return std::nullopt;
      std::string_view owner = rest.substr(0, slash);
      std::string_view name = rest.substr(slash + 1);
      name = name.substr(0, name.find('/'));
      name = name.substr(0, name.find('?'));
      name = name.substr(0, name.find('#'));
      if (name.size() > 4 && name.substr(name.size() - 4) == ".git") name.remove_suffix(4);
      if (!validRepositoryPart(owner) || !validRepositoryPart(name)) return std::nullopt;
      return Repository{std::string(owner), std::string(name)};
    }
  }
  return std::nullopt;
}

}  // namespace docs_projects
