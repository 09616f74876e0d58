#include "http/static_files.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>

#include "http/content_coding.hpp"
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

struct FileStamp {
  std::uintmax_t size = 0;
  std::int64_t modified = 0;  // file clock ticks
};

std::optional<FileStamp> stampOf(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  FileStamp stamp;
  stamp.size = fs::file_size(path, ec);
  if (ec) return std::nullopt;
  stamp.modified = static_cast<std::int64_t>(fs::last_write_time(path, ec).time_since_epoch().count());
  if (ec) return std::nullopt;
  return stamp;
}

std::string hex(std::uint64_t value) {
  char buffer[17];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, 16);
  return std::string(buffer, end);
}

// Strong validators: the identity file's time and size, and the coding (a gzip body is a
// different representation, so it must never validate an identity one or a Range).
std::string etagFor(const FileStamp& stamp, Coding coding) {
  std::string tag = "\"" + hex(static_cast<std::uint64_t>(stamp.modified)) + "-" + hex(stamp.size);
  if (coding != Coding::Identity) tag += "-" + std::string(codingName(coding));
  return tag + "\"";
}

// A precompressed sibling counts only when it is not older than the file it encodes
// (a stale one would answer with yesterday's bundle).
bool freshSibling(const std::string& path, const FileStamp& original) {
  auto sibling = stampOf(path);
  return sibling && sibling->modified >= original.modified;
}

// If-None-Match: "*" or a list of tags, compared weakly (W/ ignored) as RFC 9110 asks.
bool etagListMatches(std::string_view list, const std::string& etag) {
  while (!list.empty()) {
    auto comma = list.find(',');
    std::string_view member = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    while (!member.empty() && member.front() == ' ') member.remove_prefix(1);
    while (!member.empty() && member.back() == ' ') member.remove_suffix(1);
    if (member == "*") return true;
    if (member.substr(0, 2) == "W/") member.remove_prefix(2);
    if (member == etag) return true;
  }
  return false;
}

struct ByteRange {
  enum class Kind { Ignore, Satisfiable, Unsatisfiable } kind = Kind::Ignore;
  std::uint64_t first = 0, last = 0;
};

// One range of "bytes=first-last", "bytes=first-" or "bytes=-suffix"; anything else (several
// ranges, other units, malformed) is ignored and the whole file is sent.
ByteRange parseRange(std::string_view header, std::uint64_t size) {
  ByteRange range;
  if (header.substr(0, 6) != "bytes=" || header.find(',') != std::string_view::npos) return range;
  std::string_view spec = header.substr(6);
  auto dash = spec.find('-');
  if (dash == std::string_view::npos) return range;
  auto number = [](std::string_view text, std::uint64_t& out) {
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return !text.empty() && error == std::errc() && end == text.data() + text.size();
  };
  std::string_view firstText = spec.substr(0, dash), lastText = spec.substr(dash + 1);
  std::uint64_t first = 0, last = 0;
  if (firstText.empty()) {
    std::uint64_t suffix = 0;
    if (!number(lastText, suffix)) return range;
    if (suffix == 0 || size == 0) return {ByteRange::Kind::Unsatisfiable};
    first = suffix >= size ? 0 : size - suffix;
    last = size - 1;
  } else {
    if (!number(firstText, first)) return range;
    if (lastText.empty()) last = size == 0 ? 0 : size - 1;
    else if (!number(lastText, last) || last < first) return range;
    if (first >= size) return {ByteRange::Kind::Unsatisfiable};
    if (last >= size) last = size - 1;
  }
  return {ByteRange::Kind::Satisfiable, first, last};
}

}  // namespace

std::string contentTypeFor(const std::string& path) {
  static const std::map<std::string, std::string> types = {{".html", "text/html; charset=utf-8"},
                                                           {".js", "text/javascript; charset=utf-8"},
                                                           {".mjs", "text/javascript; charset=utf-8"},
                                                           {".css", "text/css; charset=utf-8"},
                                                           {".json", "application/json; charset=utf-8"},
                                                           {".svg", "image/svg+xml"},
                                                           {".png", "image/png"},
                                                           {".jpg", "image/jpeg"},
                                                           {".jpeg", "image/jpeg"},
                                                           {".gif", "image/gif"},
                                                           {".webp", "image/webp"},
                                                           {".ico", "image/x-icon"},
                                                           {".woff", "font/woff"},
                                                           {".woff2", "font/woff2"},
                                                           {".ttf", "font/ttf"},
                                                           {".txt", "text/plain; charset=utf-8"},
                                                           {".map", "application/json; charset=utf-8"},
                                                           {".wasm", "application/wasm"},
                                                           {".webmanifest", "application/manifest+json"}};
  auto it = types.find(fs::path(path).extension().string());
  return it == types.end() ? "application/octet-stream" : it->second;
}

StaticFiles::StaticFiles(const std::string& webRoot) {
  std::error_code ec;
  if (!webRoot.empty() && fs::is_directory(webRoot, ec)) root_ = fs::canonical(webRoot, ec).string();
}

void StaticFiles::serveFile(const std::string& path, const std::string& requestId, const StaticConditions& conditions,
                            Response& response) const {
  const std::string type = contentTypeFor(path);
  auto stamp = stampOf(path);
  if (!stamp) {
    response.file(path, type);
    return;
  }
  bool compressible = compressibleContentType(type);
  bool hasBrotli = compressible && freshSibling(path + ".br", *stamp);
  bool hasGzip = compressible && freshSibling(path + ".gz", *stamp);
  if (hasBrotli || hasGzip) response.addHeader("Vary", "Accept-Encoding");
  response.setHeader("Accept-Ranges", "bytes");
  const std::string identityTag = etagFor(*stamp, Coding::Identity);

  // Ranges address the identity bytes; If-Range with another validator asks for all of them.
  if (!conditions.range.empty() && (conditions.ifRange.empty() || conditions.ifRange == identityTag)) {
    auto range = parseRange(conditions.range, stamp->size);
    if (range.kind == ByteRange::Kind::Unsatisfiable) {
      response.json(errorBody("range_not_satisfiable", "The range is outside the file", requestId), 416);
      response.setHeader("Content-Range", "bytes */" + std::to_string(stamp->size));
      return;
    }
    if (range.kind == ByteRange::Kind::Satisfiable) {
      std::ifstream in(path, std::ios::binary);
      std::string slice(range.last - range.first + 1, '\0');
      in.seekg(static_cast<std::streamoff>(range.first));
      in.read(slice.data(), static_cast<std::streamsize>(slice.size()));
      if (in) {
        response.text(std::move(slice), type, 206);
        response.setHeader("Content-Range", "bytes " + std::to_string(range.first) + "-" + std::to_string(range.last) +
                                                "/" + std::to_string(stamp->size));
        response.setHeader("ETag", identityTag);
        return;
      }
    }
  }

  Coding coding = chooseCoding(conditions.acceptEncoding, hasBrotli, hasGzip);
  const std::string tag = etagFor(*stamp, coding);
  response.setHeader("ETag", tag);
  if (!conditions.ifNoneMatch.empty() && etagListMatches(conditions.ifNoneMatch, tag)) {
    response.setStatus(304);
    return;
  }
  if (coding == Coding::Identity) {
    response.file(path, type);
  } else {
    response.file(path + (coding == Coding::Brotli ? ".br" : ".gz"), type);
    response.setHeader("Content-Encoding", std::string(codingName(coding)));
  }
}

bool StaticFiles::serve(std::string_view rawPath, const std::string& requestId, Response& response,
                        const StaticConditions& conditions) const {
  auto segments = splitPath(rawPath);
  auto notFound = [&] { response.json(errorBody("not_found", "Not found", requestId), 404); };
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
    serveFile(realText, requestId, conditions, response);
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
    serveFile(index.string(), requestId, conditions, response);
    response.setHeader("Cache-Control", "no-cache");
  } else {
    response.text(kPlaceholderPage, "text/html; charset=utf-8");
  }
  return true;
}

}  // namespace docs::core
