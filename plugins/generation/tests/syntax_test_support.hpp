#pragma once
// What the declaration readers' tests share: finding a symbol, a line of the test source.

#include <algorithm>
#include <string>

#include "analysis/syntax/declarations.hpp"

namespace docs_generation::testing {

inline const Symbol* find(const ParsedFile& file, const std::string& scope, const std::string& name) {
  for (const auto& s : file.symbols)
    if (s.name == name && s.scope == scope) return &s;
  return nullptr;
}

// The 1-based line of `text`'s first occurrence in `code` (0: absent).
inline int lineOf(const std::string& code, const std::string& text) {
  auto at = code.find(text);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace docs_generation::testing
