#pragma once
// Serves the built SPA: files under the web root, index.html for client-side routes,
// never anything outside the root (.., encoded traversal, symlinks out, dotfiles).
// A file with a precompressed sibling (app.js.br, app.js.gz, written by the web build) is
// answered in the coding the client prefers; each form has its own ETag, and a Range
// request is always answered from the identity form.

#include <optional>
#include <string>

#include "docs/http.hpp"

namespace docs::core {

// The request headers that shape a static answer.
struct StaticConditions {
  std::string acceptEncoding;
  std::string range;
  std::string ifRange;
  std::string ifNoneMatch;
};

class StaticFiles {
 public:
  explicit StaticFiles(const std::string& webRoot);
  // Fills the response and returns true when it handled the path (file, fallback page or
  // a 404 for a missing asset); false for paths it does not own.
  bool serve(std::string_view rawPath, const std::string& requestId, Response& response,
             const StaticConditions& conditions = {}) const;
  bool available() const { return !root_.empty(); }
  const std::string& root() const { return root_; }

 private:
  void serveFile(const std::string& path, const std::string& requestId, const StaticConditions& conditions,
                 Response& response) const;
  std::string root_;  // canonical, empty when the directory does not exist
};

std::string contentTypeFor(const std::string& path);

}  // namespace docs::core
