#pragma once

#include <string>
#include <string_view>

namespace docs::ydoc {

// Strict UTF-8 -> UTF-16 (throws DecodeError on invalid input), matching
// TextDecoder('utf-8', {fatal: true, ignoreBOM: true}) as lib0 uses it.
std::u16string utf8ToUtf16(std::string_view utf8);

// UTF-16 -> UTF-8; lone surrogates become U+FFFD like TextEncoder does.
std::string utf16ToUtf8(std::u16string_view utf16);

// Number of UTF-16 code units of a valid UTF-8 string (JS `string.length`).
size_t utf16Length(std::string_view utf8);

// Throws DecodeError when `utf8` is not valid UTF-8.
void validateUtf8(std::string_view utf8);

}  // namespace docs::ydoc
