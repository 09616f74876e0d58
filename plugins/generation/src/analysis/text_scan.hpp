#pragma once
// Small, linear scanners over text for the patterns the analysis reads (imports, comments,
// build files): no regular expressions, nothing that steps back, so any text costs time
// linear in its size however it is built.

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>

namespace docs_generation {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
inline bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline char lowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

inline std::string trim(const std::string& text) {
  auto b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  auto e = text.find_last_not_of(" \t\r\n");
  return text.substr(b, e - b + 1);
}

// Where `needle` (lower case) occurs in `text` from `from` on, ignoring case; npos if not.
inline std::size_t findIgnoringCase(std::string_view text, std::string_view needle, std::size_t from = 0) {
  for (std::size_t i = from; i + needle.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && lowerChar(text[i + k]) == needle[k]) ++k;
    if (k == needle.size()) return i;
  }
  return std::string_view::npos;
}

// A cursor over a piece of text: each step either consumes what it matches or fails.
class Cursor {
 public:
  Cursor(std::string_view text, std::size_t at = 0) : text_(text), at_(at) {}
  std::size_t at() const { return at_; }
  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  // Any number of spaces; with atLeastOne, false when there is none.
  bool spaces(bool atLeastOne = false) {
    std::size_t start = at_;
    while (!done() && isSpace(text_[at_])) ++at_;
    return !atLeastOne || at_ > start;
  }
  bool literal(std::string_view word, bool ignoreCase = false) {
    if (at_ > text_.size() || text_.size() - at_ < word.size()) return false;
    for (std::size_t k = 0; k < word.size(); ++k)
      if (ignoreCase ? lowerChar(text_[at_ + k]) != word[k] : text_[at_ + k] != word[k]) return false;
    at_ += word.size();
    return true;
  }
  bool oneOf(std::string_view chars) {
    if (done() || chars.find(text_[at_]) == std::string_view::npos) return false;
    ++at_;
    return true;
  }
  // One or more characters for which `accept` holds, into `out`.
  template <typename Accept>
  bool take(Accept accept, std::string& out) {
    std::size_t start = at_;
    while (!done() && accept(text_[at_])) ++at_;
    if (at_ == start) return false;
    out.assign(text_.substr(start, at_ - start));
    return true;
  }

 private:
  std::string_view text_;
  std::size_t at_;
};

inline auto wordOr(std::string_view extra) {
  return [extra](char c) { return isWordChar(c) || extra.find(c) != std::string_view::npos; };
}
inline auto noneOf(std::string_view excluded) {
  return [excluded](char c) { return excluded.find(c) == std::string_view::npos; };
}

// A quoted name right at the cursor: '...' or "..." (either quote closes it).
inline bool quotedName(Cursor& c, std::string& name) {
  return c.oneOf("'\"") && c.take(noneOf("'\""), name) && c.oneOf("'\"");
}

}  // namespace docs_generation
