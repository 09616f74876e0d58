#include "docs/codec/codec.hpp"

#include "hex_digits.hpp"

namespace docs::codec {

std::string hexEncode(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char byte : bytes) {
    out.push_back(detail::hexDigit(byte >> 4));
    out.push_back(detail::hexDigit(byte & 15));
  }
  return out;
}

std::optional<std::string> hexDecode(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    int high = detail::hexValue(text[i]);
    int low = detail::hexValue(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}

}  // namespace docs::codec
