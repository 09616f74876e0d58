#pragma once
// One hex digit each way, shared by the hex and percent codecs.

namespace docs::codec::detail {

// 0..15, or -1 for a character that is not a hex digit (either case).
inline int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The digit of 0..15: lower case, or upper case as RFC 3986 recommends for %XX.
inline char hexDigit(unsigned value, bool upper = false) {
  return static_cast<char>(value < 10 ? '0' + value : (upper ? 'A' : 'a') + value - 10);
}

}  // namespace docs::codec::detail
