#include "source_view.hpp"

#include <docs/codec/codec.hpp>

#include <fstream>
#include <system_error>

#include "analysis/analysis.hpp"

namespace docs_generation {

namespace fs = std::filesystem;

std::string sourcePathProblem(const std::string& path) {
  if (path.empty()) return "'path' is required";
  if (path.size() > 1024) return "'path' is longer than 1024 bytes";
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos)
    return "'path' holds a character a path in the tree cannot";
  if (path.front() == '/') return "'path' is relative to the project's sources";
  std::size_t at = 0;
  while (at <= path.size()) {
    auto end = path.find('/', at);
    if (end == std::string::npos) end = path.size();
    std::string_view part(path.data() + at, end - at);
    if (part.empty() || part == "." || part == "..") return "'path' must name a file inside the project's sources";
    at = end + 1;
  }
  return "";
}

std::optional<ViewedSource> readSourceFile(const fs::path& root, const std::string& path) {
  if (!sourcePathProblem(path).empty()) return std::nullopt;
  std::error_code error;
  fs::path base = fs::canonical(root, error);
  if (error) return std::nullopt;
  // Links are resolved, and what they lead to must still be inside the tree.
  fs::path file = fs::canonical(base / path, error);
  if (error || !fs::is_regular_file(file, error)) return std::nullopt;
  auto [end, inside] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (end != base.end()) return std::nullopt;
  (void)inside;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  ViewedSource out;
  out.path = path;
  out.text.resize(kMaxSourceViewBytes + 1);
  in.read(out.text.data(), static_cast<std::streamsize>(out.text.size()));
  out.text.resize(static_cast<std::size_t>(in.gcount()));
  if (out.text.size() > kMaxSourceViewBytes) {
    out.text.resize(kMaxSourceViewBytes);
    out.truncated = true;
  }
  if (out.text.find('\0') != std::string::npos) return std::nullopt;  // binary: no view
  out.text = validUtf8(out.text);
  return out;
}

std::string sourceViewUrl(std::int64_t projectId, const std::string& path, int from, int to) {
  // The path goes in the query: a page address ending in "shapes.py" would be taken for a
  // static file, and dot folders (.github/) are never served as pages.
  std::string url = "/projects/" + std::to_string(projectId) + "/source?path=";
  std::size_t at = 0;
  while (at <= path.size()) {
    auto end = path.find('/', at);
    if (end == std::string::npos) end = path.size();
    url += (at ? "/" : "") + docs::codec::percentEncode(path.substr(at, end - at));
    at = end + 1;
  }
  return url + "#L" + std::to_string(from) + "-L" + std::to_string(to);
}

}  // namespace docs_generation
