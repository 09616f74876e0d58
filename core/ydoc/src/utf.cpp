#include "docs/ydoc/utf.hpp"

#include "docs/ydoc/error.hpp"

namespace docs::ydoc {
namespace {

// Decodes one code point at `pos`, advancing it; throws on any sequence the
// WHATWG decoder in fatal mode rejects (overlong, surrogates, > U+10FFFF).
char32_t decodeOne(std::string_view s, size_t& pos) {
  const auto byteAt = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byteAt(pos);
  if (b0 < 0x80) {
    ++pos;
    return b0;
  }
  size_t need = 0;
  char32_t cp = 0;
  unsigned char lower = 0x80;
  unsigned char upper = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lower = 0xA0;
    if (b0 == 0xED) upper = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lower = 0x90;
    if (b0 == 0xF4) upper = 0x8F;
  } else {
    throw DecodeError("invalid UTF-8 lead byte");
  }
  for (size_t i = 1; i <= need; ++i) {
    if (pos + i >= s.size()) throw DecodeError("truncated UTF-8 sequence");
    const unsigned char b = byteAt(pos + i);
    const unsigned char lo = i == 1 ? lower : 0x80;
    const unsigned char hi = i == 1 ? upper : 0xBF;
    if (b < lo || b > hi) throw DecodeError("invalid UTF-8 continuation byte");
    cp = (cp << 6) | (b & 0x3F);
  }
  pos += need + 1;
  return cp;
}

}  // namespace

std::u16string utf8ToUtf16(std::string_view utf8) {
  // UTF-16 never needs more units than UTF-8 has bytes: write in place, then trim
  std::u16string out(utf8.size(), u'\0');
  size_t n = 0;
  size_t pos = 0;
  while (pos < utf8.size()) {
    const unsigned char b = static_cast<unsigned char>(utf8[pos]);
    if (b < 0x80) {  // fast path for ASCII
      out[n++] = b;
      ++pos;
      continue;
    }
    const char32_t cp = decodeOne(utf8, pos);
    if (cp >= 0x10000) {
      const char32_t v = cp - 0x10000;
      out[n++] = static_cast<char16_t>(0xD800 + (v >> 10));
      out[n++] = static_cast<char16_t>(0xDC00 + (v & 0x3FF));
    } else {
      out[n++] = static_cast<char16_t>(cp);
    }
  }
  out.resize(n);
  return out;
}

void validateUtf8(std::string_view utf8) {
  size_t pos = 0;
  while (pos < utf8.size()) {
    if (static_cast<unsigned char>(utf8[pos]) < 0x80) {
      ++pos;
      continue;
    }
    decodeOne(utf8, pos);
  }
}

size_t utf16Length(std::string_view utf8) {
  size_t n = 0;
  for (const char c : utf8) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) n += (b >= 0xF0) ? 2 : 1;
  }
  return n;
}

std::string utf16ToUtf8(std::u16string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char32_t cp = s[i];
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
      continue;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  return out;
}

}  // namespace docs::ydoc
