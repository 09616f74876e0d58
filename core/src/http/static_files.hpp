#pragma once
// Serves the built SPA: files under the web root, index.html for client-side routes,
// never anything outside the root (.., encoded traversal, symlinks out, dotfiles).

#include <optional>
#include <string>

#include "docs/http.hpp"

namespace docs::core {

class StaticFiles {
 public:
  explicit StaticFiles(std::string webRoot);
  // Fills the response and returns true when it handled the path (file, fallback page or
  // a 404 for a missing asset); false for paths it does not own.
  bool serve(std::string_view rawPath, const std::string& requestId, Response& response) const;
  bool available() const { return !root_.empty(); }
  const std::string& root() const { return root_; }

 private:
  std::string root_;  // canonical, empty when the directory does not exist
};

std::string contentTypeFor(const std::string& path);

}  // namespace docs::core
