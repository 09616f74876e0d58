#pragma once
// Encodings and digests on OpenSSL, one copy for the host and this repository's plugins:
// base64 (RFC 4648 §4 and §5), hex, percent-encoding (RFC 3986), SHA-256, HMAC-SHA256,
// constant-time comparison and random bytes. Not part of the plugin SDK: it is linked
// statically with hidden symbols, so nothing here crosses a plugin boundary.
// Decoders return nullopt for input they refuse; nothing here throws but the random
// and digest functions, and those only when OpenSSL itself fails.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docs::codec {

// Standard alphabet, padded to a multiple of four.
std::string base64Encode(std::string_view bytes);
// The one canonical form only: padded, nothing outside the alphabet, unused bits zero.
std::optional<std::string> base64Decode(std::string_view text);
// What arrives in JSON bodies and mail: spaces, tabs and line breaks are skipped and
// unused bits ignored, but padding is still required.
std::optional<std::string> base64DecodeLenient(std::string_view text);

// URL and filename safe alphabet ('-', '_'), unpadded, as JWTs use it.
std::string base64UrlEncode(std::string_view bytes);
// Unpadded and canonical only (a '=' is refused), so every byte string has one encoding.
std::optional<std::string> base64UrlDecode(std::string_view text);

// Lower-case hex, two digits a byte.
std::string hexEncode(std::string_view bytes);
// Either case; nullopt for an odd length or a non-hex character.
std::optional<std::string> hexDecode(std::string_view text);

enum class PercentStyle {
  // RFC 3986: everything but ALPHA, DIGIT, '-', '.', '_', '~' as %XX (upper-case hex).
  Unreserved,
  // application/x-www-form-urlencoded: the same, but a space is '+'.
  Form,
};
std::string percentEncode(std::string_view text, PercentStyle style = PercentStyle::Unreserved);
// Decodes every %XX (either case); with Form, '+' is a space. nullopt on a truncated or
// non-hex escape ("%4", "%zz").
std::optional<std::string> percentDecode(std::string_view text, PercentStyle style = PercentStyle::Unreserved);

// SHA-256: 32 raw bytes, or 64 lower-case hex digits.
std::string sha256(std::string_view data);
std::string sha256Hex(std::string_view data);
// HMAC-SHA256 (RFC 2104): 32 raw bytes.
std::string hmacSha256(std::string_view key, std::string_view data);
// HMAC-SHA256 over data that arrives in pieces (a request body as it is read): update()
// with each piece, then finish() once for the 32 raw bytes.
class HmacSha256 {
 public:
  explicit HmacSha256(std::string_view key);
  ~HmacSha256();
  HmacSha256(const HmacSha256&) = delete;
  HmacSha256& operator=(const HmacSha256&) = delete;
  void update(std::string_view data);
  std::string finish();

 private:
  struct State;
  State* state_;
};
// Equal sizes and equal bytes, in time that depends only on the size (for secrets).
bool constantTimeEqual(std::string_view a, std::string_view b);

// From OpenSSL's CSPRNG; throws std::runtime_error when it has no randomness.
std::string randomBytes(std::size_t count);
// `bytes` random bytes as 2 * bytes lower-case hex digits (ids, file names).
std::string randomHex(std::size_t bytes);

}  // namespace docs::codec
