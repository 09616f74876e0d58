#include "http/static_files.hpp"

#include <filesystem>
#include <map>

#include "http/router.hpp"

namespace fs = std::filesystem;

namespace docs::core {

namespace {

constexpr const char* kPlaceholderPage =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>docsd</title></head><body>"
    "<h1>docsd is running</h1><p>The web app has not been built, so there is nothing to show here yet. "
    "The API answers under <code>/api/</code>; <a href=\"/healthz\">/healthz</a> shows the server's health.</p>"
    "</body></html>";

bool safeSegment(const std::string& segment) {
  if (segment.empty() || segment == "." || segment == "..") return false;
  if (segment.front() == '.') return false;  // dotfiles and traversal spellings
  return segment.find('/') == std::string::npos && segment.find('\\') == std::string::npos;
}

}  // namespace

std::string contentTypeFor(const std::string& path) {
  static const std::map<std::string, std::string> types = {
      {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
      {".json", "application/json; charset=utf-8"}, {".svg", "image/svg+xml"}, {".png", "image/png"},
      {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"}, {".gif", "image/gif"}, {".webp", "image/webp"},
      {".ico", "image/x-icon"}, {".woff", "font/woff"}, {".woff2", "font/woff2"}, {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"}, {".map", "application/json; charset=utf-8"},
      {".wasm", "application/wasm"}, {".webmanifest", "application/manifest+json"}};
  auto it = types.find(fs::path(path).extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

StaticFiles::StaticFiles(std::string webRoot) {
  std::error_code ec;
  if (!webRoot.empty() && fs::is_directory(webRoot, ec)) root_ = fs::canonical(webRoot, ec).string();
}

bool StaticFiles::serve(std::string_view rawPath, const std::string& requestId, Response& response) const {
  auto segments = splitPath(rawPath);
  auto notFound = [&] {
    response.json(errorBody("not_found", "Not found", requestId), 404);
  };
  if (!segments) {
    response.json(errorBody("bad_request", "Malformed path", requestId), 400);
    return true;
  }
  for (const auto& segment : *segments)
    if (!safeSegment(segment)) {
      notFound();
      return true;
    }
  bool looksLikeFile = !segments->empty() && fs::path(segments->back()).has_extension();
  if (root_.empty()) {
    if (looksLikeFile) notFound();
    else response.text(kPlaceholderPage, "text/html; charset=utf-8");
    return true;
  }
  fs::path candidate = root_;
  for (const auto& segment : *segments) candidate /= segment;
  std::error_code ec;
  if (!segments->empty() && fs::is_regular_file(candidate, ec)) {
    // Resolve symlinks and insist the file is still inside the root.
    fs::path real = fs::canonical(candidate, ec);
    std::string realText = real.string();
    if (ec || realText.compare(0, root_.size(), root_) != 0 ||
        (realText.size() > root_.size() && realText[root_.size()] != '/')) {
      notFound();
      return true;
    }
    response.file(realText, contentTypeFor(realText));
    bool hashedAsset = segments->size() >= 2 && (*segments)[0] == "assets";
    response.setHeader("Cache-Control", hashedAsset ? "public, max-age=31536000, immutable" : "no-cache");
    return true;
  }
  if (looksLikeFile) {
    notFound();
    return true;
  }
  fs::path index = fs::path(root_) / "index.html";
  if (fs::is_regular_file(index, ec)) {
    response.file(index.string(), "text/html; charset=utf-8");
    response.setHeader("Cache-Control", "no-cache");
  } else {
    response.text(kPlaceholderPage, "text/html; charset=utf-8");
  }
  return true;
}

}  // namespace docs::core
