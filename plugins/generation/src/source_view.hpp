#pragma once
// The project's source files for the web app's source view (GET /api/project/{id}/source):
// a file of the unpacked or checked-out tree, read only when its path stays inside the
// tree (no `..`, no absolute path, no link leading out) and it is text.

#include <filesystem>
#include <optional>
#include <string>

namespace docs_generation {

struct ViewedSource {
  std::string path;
  std::string text;  // valid UTF-8 (other bytes replaced), at most kMaxSourceViewBytes
  bool truncated = false;
};

inline constexpr std::size_t kMaxSourceViewBytes = 1 << 20;  // the inventory skips larger files

// Why a path is refused (the route's 400), or "" when it may be read.
std::string sourcePathProblem(const std::string& path);

// The file, or nullopt when it is not a regular text file inside `root` (the route's 404;
// a binary file is one too: the view shows text).
std::optional<ViewedSource> readSourceFile(const std::filesystem::path& root, const std::string& path);

// "/projects/{id}/source?path={path}#L{from}-L{to}": where a page links a line range of a
// file in the web app (each path segment percent-encoded).
std::string sourceViewUrl(std::int64_t projectId, const std::string& path, int from, int to);

}  // namespace docs_generation
