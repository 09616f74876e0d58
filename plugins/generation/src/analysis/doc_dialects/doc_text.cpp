#include "analysis/doc_dialects/doc_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

namespace docs_generation::doc_text {

namespace {

std::string_view trimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(at, end - at));
    if (end == text.size()) break;
    at = end + 1;
  }
  return out;
}

bool isAbbreviation(std::string_view word) {
  // The word before a '.', lower-cased, without the dot.
  static constexpr std::array<std::string_view, 24> kWords = {
      "e.g", "i.e", "etc",  "vs", "cf", "approx", "incl", "fig", "no",  "mr",  "mrs", "dr",
      "st",  "jr",  "resp", "eg", "ie", "al",     "viz",  "ca",  "min", "max", "sec", "ver"};
  std::string lower;
  for (char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.size() == 1 && std::isalpha(static_cast<unsigned char>(lower[0]))) return true;  // an initial
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

}  // namespace

std::string cleanIndentation(std::string_view text) {
  auto lines = splitLines(text);
  for (auto& line : lines) {
    std::string expanded;
    for (char c : line) {
      if (c == '\t') expanded.append(8 - expanded.size() % 8, ' ');
      else if (c != '\r') expanded += c;
    }
    line = std::move(expanded);
  }
  std::size_t least = std::string::npos;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto first = lines[i].find_first_not_of(' ');
    if (first != std::string::npos) least = std::min(least, first);
  }
  if (!lines.empty()) lines[0] = std::string(trimView(lines[0]));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(' ') == std::string::npos) lines[i].clear();
    else if (least != std::string::npos) lines[i] = lines[i].substr(least);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::size_t start = 0;
  while (start < lines.size() && lines[start].empty()) ++start;
  std::string out;
  for (std::size_t i = start; i < lines.size(); ++i) {
    if (i > start) out += '\n';
    out += lines[i];
  }
  return out;
}

std::string oneLineCell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    if (c == '|') out += '\\';
    out += c;
  }
  return std::string(trimView(out));
}

std::string firstParagraph(std::string_view markdown) {
  // Consecutive non-blank lines that are not a fence, a heading or a table (those are
  // skipped until prose starts).
  auto lines = splitLines(markdown);
  std::string paragraph;
  bool inFence = false;
  for (const auto& raw : lines) {
    std::string_view line = trimView(raw);
    if (line.starts_with("```") || line.starts_with("~~~")) {
      inFence = !inFence;
      if (!paragraph.empty()) break;
      continue;
    }
    if (inFence) continue;
    if (line.empty()) {
      if (!paragraph.empty()) break;
      continue;
    }
    if (paragraph.empty() && (line.starts_with('#') || line.starts_with('|') || line.starts_with("> [!") ||
                              line.starts_with("**Parameters**") || line.starts_with("---")))
      continue;
    if (!paragraph.empty() && (line.starts_with('#') || line.starts_with('|'))) break;
    if (!paragraph.empty()) paragraph += ' ';
    paragraph += line;
  }
  return paragraph;
}

std::string firstSentence(std::string_view markdown, std::size_t maxChars) {
  std::string paragraph = firstParagraph(markdown);
  // The sentence's end: outside code spans and parentheses.
  std::size_t end = std::string::npos;
  int depth = 0;
  bool inCode = false;
  for (std::size_t i = 0; i < paragraph.size(); ++i) {
    char c = paragraph[i];
    if (c == '`') inCode = !inCode;
    if (inCode) continue;
    if (c == '(' || c == '[') ++depth;
    if ((c == ')' || c == ']') && depth > 0) --depth;
    if (depth > 0 || (c != '.' && c != '!' && c != '?')) continue;
    bool atEnd = i + 1 == paragraph.size();
    if (!atEnd && paragraph[i + 1] != ' ') continue;
    if (c == '.') {
      std::size_t wordStart = i;
      while (wordStart > 0 && paragraph[wordStart - 1] != ' ' && paragraph[wordStart - 1] != '(') --wordStart;
      std::string_view word = std::string_view(paragraph).substr(wordStart, i - wordStart);
      if (isAbbreviation(word)) continue;
    }
    // The next sentence starts with something that is not lower case.
    if (!atEnd && i + 2 < paragraph.size() && std::islower(static_cast<unsigned char>(paragraph[i + 2]))) continue;
    end = i + 1;
    break;
  }
  std::string sentence = end == std::string::npos ? paragraph : paragraph.substr(0, end);
  if (sentence.size() <= maxChars) return sentence;
  auto cut = sentence.rfind(' ', maxChars);
  return sentence.substr(0, cut == std::string::npos ? maxChars : cut) + "...";
}

std::string toMarkdown(const Sections& s) {
  std::string out = s.body;
  auto section = [&](const char* title) {
    if (!out.empty()) out += "\n\n";
    out += "**";
    out += title;
    out += "**\n\n";
  };
  if (!s.parameters.empty()) {
    section("Parameters");
    bool types = std::any_of(s.parameters.begin(), s.parameters.end(), [](const Field& f) { return !f.type.empty(); });
    bool defaults =
        std::any_of(s.parameters.begin(), s.parameters.end(), [](const Field& f) { return !f.defaultValue.empty(); });
    out += types ? "| Name | Type |" : "| Name |";
    if (defaults) out += " Default |";
    out += " Description |\n";
    out += types ? "| --- | --- |" : "| --- |";
    if (defaults) out += " --- |";
    out += " --- |\n";
    for (const auto& f : s.parameters) {
      out += "| `" + oneLineCell(f.name) + "` |";
      if (types) out += f.type.empty() ? " |" : " `" + oneLineCell(f.type) + "` |";
      if (defaults) out += f.defaultValue.empty() ? " |" : " `" + oneLineCell(f.defaultValue) + "` |";
      out += " " + oneLineCell(f.description) + " |\n";
    }
    out.pop_back();
  }
  auto list = [&](const char* title, const std::vector<Field>& fields) {
    if (fields.empty()) return;
    section(title);
    for (const auto& f : fields) {
      out += "- ";
      std::string head = !f.name.empty() && f.type.empty() ? f.name : f.type;
      if (!head.empty()) out += "`" + oneLineCell(head) + "`";
      if (!head.empty() && !f.description.empty()) out += ": ";
      out += oneLineCell(f.description) + "\n";
    }
    out.pop_back();
  };
  list("Returns", s.returns);
  list("Raises", s.raises);
  for (const auto& [title, text] : s.notes) {
    if (!out.empty()) out += "\n\n";
    out += "**" + title + ":** " + text;
  }
  return out;
}

TaggedText splitBlockTags(std::string_view text) {
  TaggedText out;
  bool fence = false;
  std::string* target = &out.body;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    std::string_view trimmedLine = line;
    while (!trimmedLine.empty() && (trimmedLine.front() == ' ' || trimmedLine.front() == '\t'))
      trimmedLine.remove_prefix(1);
    if (trimmedLine.starts_with("```")) fence = !fence;
    if (!fence && trimmedLine.size() > 1 && trimmedLine[0] == '@' &&
        std::isalpha(static_cast<unsigned char>(trimmedLine[1]))) {
      std::size_t nameEnd = 1;
      while (nameEnd < trimmedLine.size() && (std::isalnum(static_cast<unsigned char>(trimmedLine[nameEnd])) ||
                                              trimmedLine[nameEnd] == '-' || trimmedLine[nameEnd] == '_'))
        ++nameEnd;
      std::string_view rest = trimmedLine.substr(nameEnd);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
      out.tags.emplace_back(std::string(trimmedLine.substr(1, nameEnd - 1)), std::string(rest));
      target = &out.tags.back().second;
      continue;
    }
    if (target != &out.body && !target->empty()) *target += '\n';
    target->append(target == &out.body ? line : trimmedLine);
    if (target == &out.body) *target += '\n';
  }
  return out;
}

std::pair<std::string, std::string> firstWordAndRest(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n')) text.remove_prefix(1);
  auto space = text.find_first_of(" \t\n");
  std::string word(text.substr(0, space));
  std::string_view rest = space == std::string_view::npos ? std::string_view() : text.substr(space);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t' || rest.front() == '\n')) rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\n')) rest.remove_suffix(1);
  return {word, std::string(rest)};
}

}  // namespace docs_generation::doc_text
