#include <openssl/evp.h>

#include <algorithm>

#include "docs/codec/codec.hpp"

namespace docs::codec {

namespace {

// EVP_EncodeBlock and EVP_DecodeBlock take an int length: long inputs go in chunks of
// whole groups (3 bytes in, 4 characters out).
constexpr std::size_t kGroupsPerChunk = std::size_t{1} << 20;

// The standard alphabet's value of c, or -1.
int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// EVP_DecodeBlock accepts '=' anywhere and skips whitespace, so it only ever sees text
// checked here: a multiple of four, alphabet symbols, then at most two '='.
std::optional<std::string> decodePadded(std::string_view text, bool canonical) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::string_view symbols = text.substr(0, text.size() - padding);
  if (!std::all_of(symbols.begin(), symbols.end(), [](char c) { return sextet(c) >= 0; })) return std::nullopt;
  // The last symbol before padding carries 4 (two '=') or 2 (one '=') bits that no byte uses.
  if (canonical && padding > 0 && (sextet(symbols.back()) & (padding == 2 ? 15 : 3)) != 0) return std::nullopt;

  std::string out(text.size() / 4 * 3, '\0');
  constexpr std::size_t chunk = kGroupsPerChunk * 4;
  for (std::size_t offset = 0; offset < text.size(); offset += chunk) {
    std::size_t length = std::min(chunk, text.size() - offset);
    if (EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data() + offset / 4 * 3),
                        reinterpret_cast<const unsigned char*>(text.data() + offset), static_cast<int>(length)) < 0)
      return std::nullopt;
  }
  // EVP_DecodeBlock writes a zero byte for each '='.
  out.resize(out.size() - padding);
  return out;
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
  std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0');  // + EVP_EncodeBlock's terminating NUL
  constexpr std::size_t chunk = kGroupsPerChunk * 3;
  std::size_t written = 0;
  for (std::size_t offset = 0; offset < bytes.size(); offset += chunk) {
    std::size_t length = std::min(chunk, bytes.size() - offset);
    written += static_cast<std::size_t>(EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data() + written),
                                                        reinterpret_cast<const unsigned char*>(bytes.data() + offset),
                                                        static_cast<int>(length)));
  }
  out.resize(written);
  return out;
}

std::optional<std::string> base64Decode(std::string_view text) { return decodePadded(text, true); }

std::optional<std::string> base64DecodeLenient(std::string_view text) {
  std::string compact;
  compact.reserve(text.size());
  for (char c : text)
    if (!whitespace(c)) compact.push_back(c);
  return decodePadded(compact, false);
}

std::string base64UrlEncode(std::string_view bytes) {
  std::string out = base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) {
    if (c == '+') c = '-';
    else if (c == '/') c = '_';
  }
  return out;
}

std::optional<std::string> base64UrlDecode(std::string_view text) {
  std::string standard;
  standard.reserve(text.size() + 3);
  for (char c : text) {
    if (c == '-') standard.push_back('+');
    else if (c == '_') standard.push_back('/');
    else if (c == '+' || c == '/' || sextet(c) < 0) return std::nullopt;
    else standard.push_back(c);
  }
  // One character left over carries 6 bits: less than a byte, never an encoding.
  if (standard.size() % 4 == 1) return std::nullopt;
  while (standard.size() % 4 != 0) standard.push_back('=');
  return decodePadded(standard, true);
}

}  // namespace docs::codec
