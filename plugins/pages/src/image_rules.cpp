#include "image_rules.hpp"

namespace docs_pages {

namespace {
bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string lowerMediaType(std::string_view contentType) {
  std::string type(contentType.substr(0, contentType.find(';')));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.pop_back();
  std::size_t start = type.find_first_not_of(" \t");
  type = start == std::string::npos ? std::string() : type.substr(start);
  for (char& c : type)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return type;
}
}  // namespace

std::optional<ImageKind> sniffImage(std::string_view b) {
  if (startsWith(b, std::string_view("\x89PNG\r\n\x1a\n", 8))) return ImageKind{"png", "image/png"};
  if (startsWith(b, "\xFF\xD8\xFF")) return ImageKind{"jpg", "image/jpeg"};
  if (startsWith(b, "GIF87a") || startsWith(b, "GIF89a")) return ImageKind{"gif", "image/gif"};
  if (b.size() >= 12 && startsWith(b, "RIFF") && b.substr(8, 4) == "WEBP") return ImageKind{"webp", "image/webp"};
  return std::nullopt;
}

bool declaredTypeMatches(std::string_view contentType, const ImageKind& kind) {
  std::string type = lowerMediaType(contentType);
  if (type == kind.contentType) return true;
  return kind.extension == "jpg" && (type == "image/jpg" || type == "image/pjpeg");
}

std::optional<std::string> contentTypeForExtension(std::string_view extension) {
  if (extension == "png") return "image/png";
  if (extension == "jpg") return "image/jpeg";
  if (extension == "gif") return "image/gif";
  if (extension == "webp") return "image/webp";
  return std::nullopt;
}

bool validImageName(std::string_view name) {
  auto dot = name.find('.');
  if (dot != 16) return false;
  for (char c : name.substr(0, 16))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return contentTypeForExtension(name.substr(17)).has_value();
}

}  // namespace docs_pages
