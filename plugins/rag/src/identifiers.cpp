#include "identifiers.hpp"

#include <cctype>

namespace docs_rag {

namespace {

bool wordChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }
bool lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

// Calls visit(word) for each run of word characters.
template <class Visit>
void forEachWord(std::string_view text, Visit visit) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !wordChar(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t start = i;
    while (i < text.size() && wordChar(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) visit(text.substr(start, i - start));
  }
}

constexpr std::size_t kMaxQueryGroups = 24;

}  // namespace

std::vector<std::string> identifierParts(std::string_view word) {
  std::vector<std::string> parts;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) parts.push_back(std::move(current));
    current.clear();
  };
  for (std::size_t i = 0; i < word.size(); ++i) {
    auto c = static_cast<unsigned char>(word[i]);
    if (!std::isalnum(c) && c < 0x80) {  // '_' and friends separate
      flush();
      continue;
    }
    if (!current.empty()) {
      auto previous = static_cast<unsigned char>(word[i - 1]);
      bool next_lower = i + 1 < word.size() && lower(static_cast<unsigned char>(word[i + 1]));
      // fooBar | HTTPRequest (before the R of Request) | v2 | 2d
      if ((upper(c) && (lower(previous) || digit(previous))) || (upper(c) && upper(previous) && next_lower) ||
          (digit(c) && !digit(previous) && previous < 0x80) || (!digit(c) && digit(previous)))
        flush();
    }
    current.push_back(static_cast<char>(c < 0x80 ? std::tolower(c) : c));
  }
  flush();
  return parts;
}

std::string searchableText(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  std::size_t copied = 0;
  forEachWord(text, [&](std::string_view word) {
    std::size_t end = static_cast<std::size_t>(word.data() - text.data()) + word.size();
    out.append(text.substr(copied, end - copied));
    copied = end;
    auto parts = identifierParts(word);
    if (parts.size() < 2) return;
    out += ' ';
    for (const auto& part : parts) out += part;
    for (const auto& part : parts) {
      out += ' ';
      out += part;
    }
    out += ' ';
  });
  out.append(text.substr(copied));
  return out;
}

std::string nameWords(std::string_view text) {
  std::string out;
  forEachWord(text, [&](std::string_view word) {
    for (const auto& part : identifierParts(word)) {
      if (!out.empty()) out += ' ';
      out += part;
    }
  });
  return out;
}

std::string tsQueryExpression(std::string_view query, bool everyWord) {
  std::string out;
  std::size_t groups = 0;
  forEachWord(query, [&](std::string_view word) {
    if (groups >= kMaxQueryGroups) return;
    std::vector<std::string> parts;
    for (auto& part : identifierParts(word)) {
      std::string clean;
      for (char c : part)
        if (lower(static_cast<unsigned char>(c)) || digit(static_cast<unsigned char>(c)) ||
            static_cast<unsigned char>(c) >= 0x80)  // UTF-8 letters; never an operator
          clean += c;
      if (!clean.empty()) parts.push_back(std::move(clean));
    }
    if (parts.empty()) return;
    std::string group;
    if (parts.size() == 1) group = parts[0];
    else {
      std::string joined, all;
      for (const auto& part : parts) {
        joined += part;
        all += (all.empty() ? "" : " & ") + part;
      }
      group = "(" + joined + " | " + all + ")";
    }
    out += out.empty() ? "" : (everyWord ? " & " : " | ");
    out += group;
    ++groups;
  });
  return out;
}

}  // namespace docs_rag
