#include "writing/myst_markdown.hpp"

#include <cctype>
#include <vector>

#include "writing/rst_markdown.hpp"

namespace docs_generation {

namespace {

constexpr int kMaxDepth = 8;  // directives in directives

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool roleChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '-' || c == '_'; }

// A fence's marker at the start of `line`: its character and length (3 or more backticks,
// tildes or colons), or 0.
std::size_t fenceLength(std::string_view line, char& marker) {
  line = trimmed(line);
  if (line.empty() || (line[0] != '`' && line[0] != '~' && line[0] != ':')) return 0;
  marker = line[0];
  std::size_t length = line.find_first_not_of(marker);
  if (length == std::string_view::npos) length = line.size();
  return length >= 3 ? length : 0;
}

// `{func}`name`` roles, outside code spans, as the site shows them.
std::string rolesAsMarkdown(std::string_view line) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '{') {
      std::size_t end = i + 1;
      while (end < line.size() && roleChar(line[end])) ++end;
      if (end > i + 1 && end + 1 < line.size() && line[end] == '}' && line[end + 1] == '`') {
        auto close = line.find('`', end + 2);
        if (close != std::string_view::npos) {
          out += restructuredTextRole(std::string(line.substr(i + 1, end - i - 1)),
                                      std::string(line.substr(end + 2, close - end - 2)));
          i = close + 1;
          continue;
        }
      }
    } else if (c == '`') {  // a code span is copied as is
      std::size_t ticks = 0;
      while (i + ticks < line.size() && line[i + ticks] == '`') ++ticks;
      auto close = line.find(std::string(ticks, '`'), i + ticks);
      std::size_t end = close == std::string_view::npos ? i + ticks : close + ticks;
      out.append(line.substr(i, end - i));
      i = end;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::string quoted(const std::string& inner, const std::string& kind) {
  std::string out = "> [!" + kind + "]\n";
  std::size_t at = 0;
  while (at < inner.size()) {
    auto end = inner.find('\n', at);
    if (end == std::string::npos) end = inner.size();
    std::string_view part = std::string_view(inner).substr(at, end - at);
    out += part.empty() ? ">\n" : "> " + std::string(part) + "\n";
    at = end + 1;
  }
  return out + "\n";
}

bool isMkdocstringsName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != ':') return false;
  return std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_';
}

// VitePress and VuePress containers (`::: tip`, `::: details Title`).
bool isContainerWord(std::string_view rest) {
  std::string_view word = rest.substr(0, rest.find(' '));
  for (std::string_view container :
       {"tip", "info", "warning", "danger", "details", "note", "caution", "important", "code-group", "raw", "v-pre"})
    if (word == container) return true;
  return false;
}

class MystConverter {
 public:
  std::string convert(const std::vector<std::string_view>& lines, int depth) {
    std::string out;
    char codeMarker = 0;
    std::size_t codeLength = 0;  // inside a plain code fence: copied as is
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = lines[i];
      std::string_view text = trimmed(line);
      char marker = 0;
      std::size_t length = fenceLength(text, marker);
      if (codeLength > 0) {
        out.append(line);
        out += '\n';
        if (length >= codeLength && marker == codeMarker && trimmed(text.substr(length)).empty()) codeLength = 0;
        continue;
      }
      if (length > 0 && text.size() > length && text[length] == '{' && depth < kMaxDepth) {
        i = directive(lines, i, marker, length, depth, out);
        continue;
      }
      if (length > 0 && marker != ':') {  // a plain code fence
        codeMarker = marker;
        codeLength = length;
        out.append(line);
        out += '\n';
        continue;
      }
      if (text.size() > 3 && text.front() == '(' && text.ends_with(")=") && text.find(' ') == std::string_view::npos)
        continue;  // (label)= : a target for cross-references
      if (text.starts_with("::: ") && isContainerWord(trimmed(text.substr(4)))) {
        // VitePress' `::: tip Title`: the `:::tip` form the page converter reads.
        out += ":::" + std::string(trimmed(text.substr(4))) + "\n";
        continue;
      }
      if (text.starts_with("::: ") && isMkdocstringsName(trimmed(text.substr(4)))) {
        out += apiMarker(trimmed(text.substr(4))) + "\n";
        // Its options are indented below it (`    options:`).
        while (i + 1 < lines.size() && !lines[i + 1].empty() && (lines[i + 1][0] == ' ' || lines[i + 1][0] == '\t'))
          ++i;
        continue;
      }
      out += rolesAsMarkdown(line);
      out += '\n';
    }
    return out;
  }

 private:
  // The directive opening at `lines[at]`; returns the index of its closing line.
  std::size_t directive(const std::vector<std::string_view>& lines, std::size_t at, char marker, std::size_t length,
                        int depth, std::string& out) {
    std::string_view head = trimmed(lines[at]).substr(length + 1);
    auto close = head.find('}');
    std::string name(head.substr(0, close));
    std::string argument(close == std::string_view::npos ? std::string_view() : trimmed(head.substr(close + 1)));
    // The body: to a fence of the same marker at least as long, nested openings counted.
    std::vector<std::string_view> body;
    int nested = 0;
    std::size_t end = at + 1;
    for (; end < lines.size(); ++end) {
      std::string_view text = trimmed(lines[end]);
      char inner = 0;
      std::size_t innerLength = fenceLength(text, inner);
      if (inner == marker && innerLength >= length) {
        if (text.size() > innerLength && text[innerLength] == '{') {
          ++nested;
        } else if (trimmed(text.substr(innerLength)).empty()) {
          if (nested == 0) break;
          --nested;
        }
      }
      body.push_back(lines[end]);
    }
    // Options: `:key: value` lines, or a `---` YAML block, at the start.
    std::size_t first = 0;
    if (!body.empty() && trimmed(body[0]) == "---") {
      for (first = 1; first < body.size() && trimmed(body[first]) != "---"; ++first) {
      }
      first = first < body.size() ? first + 1 : 0;
    }
    while (first < body.size() && trimmed(body[first]).starts_with(":") && trimmed(body[first]).size() > 1 &&
           trimmed(body[first])[1] != ':')
      ++first;
    std::vector<std::string_view> content(body.begin() + static_cast<std::ptrdiff_t>(first), body.end());
    out += render(name, argument, content, depth);
    return end;
  }

  std::string render(const std::string& name, const std::string& argument, const std::vector<std::string_view>& content,
                     int depth) {
    std::string text;
    for (auto line : content) {
      text.append(line);
      text += '\n';
    }
    if (name == "code-block" || name == "code" || name == "sourcecode" || name == "code-cell")
      return "```" + argument + "\n" + text + "```\n\n";
    if (name == "mermaid" || name == "math") return "```" + name + "\n" + text + "```\n\n";
    if (name == "eval-rst") return restructuredTextToMarkdown(text) + "\n";
    if (name.rfind("auto", 0) == 0 && !argument.empty())
      return apiMarker(trimmed(std::string_view(argument).substr(0, argument.find('(')))) + "\n\n";
    if (name == "toctree" || name == "contents" || name == "index" || name == "include" || name == "literalinclude" ||
        name == "only" || name == "raw")
      return "";
    if (name == "image" || name == "figure") return "![](" + argument + ")\n\n" + convert(content, depth + 1) + "\n";
    std::string kind = admonitionAlertKind(name);
    if (!kind.empty()) {
      std::string lead;
      if (name == "versionadded") lead = "New in version " + argument + ".";
      else if (name == "versionchanged") lead = "Changed in version " + argument + ".";
      else if (name == "deprecated") lead = "Deprecated since version " + argument + ".";
      else if (name == "admonition") lead = "**" + argument + "**";
      else lead = argument;
      std::string inner = (lead.empty() ? "" : rolesAsMarkdown(lead) + "\n\n") + convert(content, depth + 1);
      while (!inner.empty() && inner.back() == '\n') inner.pop_back();
      return quoted(inner, kind);
    }
    // Tabs, cards, dropdowns, grids, topics: their title in bold, then their content.
    std::string titled = argument.empty() ? "" : "**" + rolesAsMarkdown(argument) + "**\n\n";
    return titled + convert(content, depth + 1) + "\n";
  }
};

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    at = end + 1;
  }
  return out;
}

}  // namespace

std::string apiMarker(std::string_view name) { return "<!-- docs:api " + std::string(name) + " -->"; }

std::optional<std::string> apiMarkerName(std::string_view line) {
  line = trimmed(line);
  constexpr std::string_view kOpen = "<!-- docs:api ", kClose = " -->";
  if (!line.starts_with(kOpen) || !line.ends_with(kClose) || line.size() <= kOpen.size() + kClose.size())
    return std::nullopt;
  return std::string(line.substr(kOpen.size(), line.size() - kOpen.size() - kClose.size()));
}

std::string mystToMarkdown(std::string_view markdown) {
  std::string out = MystConverter().convert(splitLines(markdown), 0);
  if (!markdown.ends_with('\n') && out.ends_with('\n')) out.pop_back();  // as it was, to the byte
  return out;
}

}  // namespace docs_generation
