#include "docs/codec/codec.hpp"

#include "hex_digits.hpp"

namespace docs::codec {

namespace {

// RFC 3986 §2.3, in ASCII whatever the locale.
bool unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

std::string percentEncode(std::string_view text, PercentStyle style) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (unreserved(c)) {
      out.push_back(c);
    } else if (c == ' ' && style == PercentStyle::Form) {
      out.push_back('+');
    } else {
      auto byte = static_cast<unsigned char>(c);
      out.push_back('%');
      out.push_back(detail::hexDigit(byte >> 4, true));
      out.push_back(detail::hexDigit(byte & 15, true));
    }
  }
  return out;
}

std::optional<std::string> percentDecode(std::string_view text, PercentStyle style) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      int high = detail::hexValue(text[i + 1]);
      int low = detail::hexValue(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else if (c == '+' && style == PercentStyle::Form) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace docs::codec
