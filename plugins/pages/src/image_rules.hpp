#pragma once
// What an uploaded image may be: PNG, JPEG, GIF or WebP, recognised by its first bytes
// and matching its declared content type. SVG and HTML are refused (they can carry script).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docs_pages {

inline constexpr std::uint64_t kMaxImageBytes = 20ull * 1024 * 1024;  // "max 20MB"
inline constexpr std::size_t kSniffBytes = 12;                        // enough for every signature

struct ImageKind {
  std::string extension;    // png, jpg, gif, webp
  std::string contentType;  // image/png, ...
};

// The kind the bytes start with, or nullopt (also for SVG, HTML and anything else).
std::optional<ImageKind> sniffImage(std::string_view firstBytes);
// Whether the declared Content-Type (parameters ignored) names that kind.
bool declaredTypeMatches(std::string_view contentType, const ImageKind& kind);
// The content type to serve for a stored file's extension, or nullopt.
std::optional<std::string> contentTypeForExtension(std::string_view extension);
// A stored image's name: 16 lower-case hex digits, a dot and a known extension.
bool validImageName(std::string_view name);

}  // namespace docs_pages
