#include "writing/rst_markdown.hpp"

#include "writing/myst_markdown.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace docs_generation {
namespace {

// Deeper nesting (lists in quotes in admonitions ...) is kept as plain text.
constexpr int kMaxDepth = 16;

std::string trimmed(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

std::size_t indentOf(const std::string& line) {
  auto first = line.find_first_not_of(' ');
  return first == std::string::npos ? line.size() : first;
}

bool blank(const std::string& line) { return line.find_first_not_of(" \r") == std::string::npos; }

bool isPunctuation(char c) {
  return std::string_view("=-~^\"'`#*+_:.<>!$%&,;/?@[\\]{|}()").find(c) != std::string_view::npos && c != '\0';
}

// A line of one repeated punctuation character (a title's underline or overline).
bool isAdornment(const std::string& line) {
  std::string t = trimmed(line);
  if (t.size() < 3 || indentOf(line) != 0 || !isPunctuation(t[0])) return false;
  return t.find_first_not_of(t[0]) == std::string::npos;
}

// "=====  ======": a simple table's border; "+----+----+": a grid table's.
bool isTableBorder(const std::string& line) {
  std::string t = trimmed(line);
  if (t.size() < 3) return false;
  if (t[0] == '+' && (t[1] == '-' || t[1] == '=')) return t.find_first_not_of("+-=") == std::string::npos;
  return t[0] == '=' && t.find(' ') != std::string::npos && t.find_first_not_of("= ") == std::string::npos;
}

std::vector<std::string> dedented(const std::vector<std::string>& lines) {
  std::size_t least = std::string::npos;
  for (const auto& line : lines)
    if (!blank(line)) least = std::min(least, indentOf(line));
  std::vector<std::string> out;
  for (const auto& line : lines) out.push_back(blank(line) ? std::string() : line.substr(std::min(least, line.size())));
  while (!out.empty() && out.back().empty()) out.pop_back();
  while (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

std::string roleText(const std::string& role, std::string content) {  // restructuredTextRole
  // "Title <target>" shows the title; "~a.b.c" shows "c"; "!x" shows "x".
  std::string target = content;
  if (!content.empty() && content.back() == '>' && content.find(" <") != std::string::npos) {
    auto open = content.rfind(" <");
    target = content.substr(open + 2, content.size() - open - 3);
    content = trimmed(content.substr(0, open));
  } else if (!content.empty() && (content[0] == '~' || content[0] == '!' ||
                                  (content[0] == '.' && role != "doc" && content.size() > 1 &&
                                   std::isalpha(static_cast<unsigned char>(content[1]))))) {
    bool shortForm = content[0] == '~';  // '.' (Sphinx: search from here) keeps the rest
    content = content.substr(1);
    target = content;
    if (shortForm && content.rfind('.') != std::string::npos) content = content.substr(content.rfind('.') + 1);
  }
  if (role == "doc") return "[" + content + "](" + target + ")";
  if (role == "ref" || role == "term" || role == "abbr" || role == "guilabel" || role == "menuselection")
    return content;
  if (role == "emphasis") return "*" + content + "*";
  if (role == "strong") return "**" + content + "**";
  return "`" + content + "`";
}

// Inline markup: ``literal``, :role:`x`, `text <url>`_, `x`_, `default role`, |sub|, [#]_.
std::string inlineMarkdown(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t i = 0;
  auto roleAt = [&](std::size_t at, std::string& role) {
    // ":name:`" with name of letters, digits and :_+-
    std::size_t j = at + 1;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_' || text[j] == '+' ||
                               text[j] == '-' || (text[j] == ':' && j + 1 < text.size() && text[j + 1] != '`')))
      ++j;
    if (j == at + 1 || j + 1 >= text.size() || text[j] != ':' || text[j + 1] != '`') return std::size_t(0);
    role = text.substr(at + 1, j - at - 1);
    if (role.rfind("py:", 0) == 0 || role.rfind("c:", 0) == 0 || role.rfind("js:", 0) == 0)
      role = role.substr(role.find(':') + 1);
    return j + 2;
  };
  while (i < text.size()) {
    if (text.compare(i, 2, "``") == 0) {
      auto close = text.find("``", i + 2);
      if (close != std::string::npos) {
        std::string code = text.substr(i + 2, close - i - 2);
        out += code.find('`') == std::string::npos ? "`" + code + "`" : "`` " + code + " ``";
        i = close + 2;
        continue;
      }
    }
    std::string role;
    if (text[i] == ':' && (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      if (std::size_t start = roleAt(i, role)) {
        auto close = text.find('`', start);
        if (close != std::string::npos) {
          out += roleText(role, text.substr(start, close - start));
          i = close + 1;
          continue;
        }
      }
    }
    if (text[i] == '`') {
      auto close = text.find('`', i + 1);
      if (close != std::string::npos && close > i + 1) {
        std::string content = text.substr(i + 1, close - i - 1);
        std::size_t after = close + 1;
        if (after < text.size() && text[after] == '_') {
          after += after + 1 < text.size() && text[after + 1] == '_' ? 2 : 1;
          auto open = content.rfind('<');
          if (!content.empty() && content.back() == '>' && open != std::string::npos) {
            std::string label = trimmed(content.substr(0, open));
            std::string url = content.substr(open + 1, content.size() - open - 2);
            out += "[" + (label.empty() ? url : label) + "](" + url + ")";
          } else {
            out += content;
          }
        } else {
          out += "`" + content + "`";
        }
        i = after;
        continue;
      }
    }
    if (text[i] == '|' && i + 1 < text.size() && text[i + 1] != ' ') {
      auto close = text.find('|', i + 1);
      if (close != std::string::npos && close - i < 48 && text[close - 1] != ' ') {
        out += text.substr(i + 1, close - i - 1);
        i = close + 1;
        if (i < text.size() && text[i] == '_') i += i + 1 < text.size() && text[i + 1] == '_' ? 2 : 1;
        continue;
      }
    }
    if (text[i] == '[' && (text.compare(i, 4, "[#]_") == 0 ||
                           (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))))) {
      auto close = text.find("]_", i);
      if (close != std::string::npos && close - i < 12) {
        i = close + 2;
        continue;
      }
    }
    if (text[i] == '<') {
      out += "&lt;";
      ++i;
      continue;
    }
    out += text[i++];
  }
  return out;
}

std::string calloutKind(const std::string& directive) {
  if (directive == "tip" || directive == "hint" || directive == "seealso") return "TIP";
  if (directive == "important" || directive == "versionadded" || directive == "versionchanged") return "IMPORTANT";
  if (directive == "warning" || directive == "caution" || directive == "attention" || directive == "deprecated")
    return "WARNING";
  if (directive == "danger" || directive == "error") return "CAUTION";
  return "NOTE";
}

bool isCallout(const std::string& directive) {
  for (const char* name : {"note", "hint", "tip", "seealso", "important", "warning", "caution", "attention", "danger",
                           "error", "admonition", "versionadded", "versionchanged", "deprecated"})
    if (directive == name) return true;
  return false;
}

bool isApiDirective(const std::string& directive) {
  for (const char* prefix :
       {"auto", "function", "class", "method", "attribute", "exception", "data", "module", "decorator"})
    if (directive.rfind(prefix, 0) == 0) return true;
  return false;
}

// "- x", "* x", "+ x", "1. x", "#. x", "(a) x", "2) x": the offset of the item's text, or 0.
std::size_t listItemOffset(const std::string& line, bool& ordered) {
  if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ') {
    ordered = false;
    return 2 + (line.find_first_not_of(' ', 2) == std::string::npos ? 0 : line.find_first_not_of(' ', 2) - 2);
  }
  std::size_t i = line[0] == '(' ? 1 : 0;
  std::size_t start = i;
  while (i < line.size() && i - start < 4 && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == '#')) ++i;
  if (i == start || i + 1 >= line.size() || (line[i] != '.' && line[i] != ')') || line[i + 1] != ' ') return 0;
  ordered = true;
  return i + 2;
}

class Converter {
 public:
  std::string convert(const std::vector<std::string>& lines, int depth) {
    std::string out;
    if (depth > kMaxDepth) {
      for (const auto& line : lines) out += inlineMarkdown(trimmed(line)) + "\n";
      return out + "\n";
    }
    bool literalNext = false;
    for (std::size_t i = 0; i < lines.size();) {
      const std::string& line = lines[i];
      if (blank(line)) {
        ++i;
        continue;
      }
      std::string t = trimmed(line);
      // An indented block: code after "::", else a quote or a definition (plain text here).
      if (indentOf(line) > 0) {
        std::vector<std::string> block;
        for (; i < lines.size() && (blank(lines[i]) || indentOf(lines[i]) > 0); ++i) block.push_back(lines[i]);
        auto body = dedented(block);
        if (literalNext) out += fenced("", body);
        else out += convert(body, depth + 1);
        literalNext = false;
        continue;
      }
      literalNext = false;
      // Section titles: overline + title + underline, or title + underline.
      if (isAdornment(line) && i + 2 < lines.size() && isAdornment(lines[i + 2]) && !blank(lines[i + 1]) &&
          trimmed(lines[i + 2])[0] == t[0]) {
        out += title(std::string(1, t[0]) + "o", trimmed(lines[i + 1]));
        i += 3;
        continue;
      }
      if (!isAdornment(line) && i + 1 < lines.size() && isAdornment(lines[i + 1]) &&
          trimmed(lines[i + 1]).size() + 2 >= t.size()) {
        out += title(std::string(1, trimmed(lines[i + 1])[0]) + "u", t);
        i += 2;
        continue;
      }
      if (isAdornment(line) && t.size() >= 4) {  // a transition
        out += "---\n\n";
        ++i;
        continue;
      }
      if (isTableBorder(line)) {
        std::vector<std::string> table;
        for (; i < lines.size() && !blank(lines[i]); ++i) table.push_back(lines[i]);
        out += fenced("text", table);
        continue;
      }
      if (t.rfind(".. ", 0) == 0 || t == "..") {
        std::vector<std::string> body;
        std::string head = t.size() > 3 ? t.substr(3) : "";
        for (++i; i < lines.size() && (blank(lines[i]) || indentOf(lines[i]) > 0); ++i) body.push_back(lines[i]);
        out += directive(head, dedented(body), depth);
        continue;
      }
      if (t.rfind(">>>", 0) == 0) {
        std::vector<std::string> session;
        for (; i < lines.size() && !blank(lines[i]); ++i) session.push_back(lines[i]);
        out += fenced("python", session);
        continue;
      }
      bool ordered = false;
      if (std::size_t offset = listItemOffset(line, ordered)) {
        std::vector<std::string> item = {std::string(offset, ' ') + line.substr(offset)};
        for (++i; i < lines.size(); ++i) {
          if (!blank(lines[i]) && indentOf(lines[i]) < offset) break;
          if (blank(lines[i])) {
            std::size_t next = i + 1;
            while (next < lines.size() && blank(lines[next])) ++next;
            if (next >= lines.size() || indentOf(lines[next]) < offset) break;
          }
          item.push_back(lines[i]);
        }
        std::string body = convert(dedented(item), depth + 1);
        std::string marker = ordered ? "1. " : "- ";
        std::string indent(marker.size(), ' ');
        bool first = true;
        for (std::size_t at = 0; at < body.size();) {
          auto end = body.find('\n', at);
          std::string part = body.substr(at, end == std::string::npos ? std::string::npos : end - at);
          out += (first ? marker : part.empty() ? "" : indent) + part + "\n";
          first = false;
          at = end == std::string::npos ? body.size() : end + 1;
        }
        continue;
      }
      if (t[0] == ':' && t.find(": ", 1) != std::string::npos && t.find('`') > t.find(": ", 1)) {  // a field list entry
        auto close = t.find(": ", 1);
        out += "**" + t.substr(1, close - 1) + "**: " + inlineMarkdown(t.substr(close + 2)) + "\n\n";
        ++i;
        continue;
      }
      // A paragraph: up to a blank line or an indented line.
      std::vector<std::string> paragraph;
      for (; i < lines.size() && !blank(lines[i]) && indentOf(lines[i]) == 0; ++i) {
        if (i + 1 < lines.size() && !paragraph.empty() && isAdornment(lines[i + 1]) && !isAdornment(lines[i])) break;
        paragraph.push_back(trimmed(lines[i]));
      }
      std::string& last = paragraph.back();
      if (last.size() >= 2 && last.compare(last.size() - 2, 2, "::") == 0) {
        literalNext = true;
        if (last == "::") paragraph.pop_back();
        else if (last.size() >= 3 && last[last.size() - 3] == ' ') last = trimmed(last.substr(0, last.size() - 2));
        else last.pop_back();
      }
      bool definition =
          paragraph.size() == 1 && i < lines.size() && !blank(lines[i]) && indentOf(lines[i]) > 0 && !literalNext;
      std::string text;
      for (const auto& part : paragraph) text += (text.empty() ? "" : "\n") + inlineMarkdown(part);
      if (!text.empty()) out += (definition ? "**" + text + "**" : text) + "\n\n";
    }
    return out;
  }

 private:
  std::string title(const std::string& style, const std::string& text) {
    auto [found, added] = levels_.emplace(style, static_cast<int>(levels_.size()) + 1);
    int level = std::min(found->second, 6);
    return std::string(static_cast<std::size_t>(level), '#') + " " + inlineMarkdown(text) + "\n\n";
  }

  static std::string fenced(const std::string& language, const std::vector<std::string>& lines) {
    std::string out = "```" + language + "\n";
    for (const auto& line : lines) {
      // A fence inside the code would end it early.
      out += line.rfind("```", 0) == 0 ? " " + line : line;
      out += "\n";
    }
    return out + "```\n\n";
  }

  std::string directive(const std::string& head, const std::vector<std::string>& body, int depth) {
    auto marker = head.find("::");
    if (marker == std::string::npos) return "";  // a comment, a target (.. _x:), a footnote
    std::string name = trimmed(head.substr(0, marker));
    std::string argument = trimmed(head.substr(marker + 2));
    if (name.find('|') != std::string::npos) return "";  // a substitution definition
    if (name.rfind("py:", 0) == 0 || name.rfind("rst:", 0) == 0) name = name.substr(name.find(':') + 1);
    // Option lines (":linenos:", ":caption: x") come first in a body.
    std::size_t start = 0;
    while (start < body.size() && !body[start].empty() && body[start][0] == ':') ++start;
    std::vector<std::string> content(body.begin() + static_cast<std::ptrdiff_t>(start), body.end());
    content = dedented(content);
    if (name == "code-block" || name == "code" || name == "sourcecode" || name == "literalinclude" ||
        name == "parsed-literal") {
      if (name == "literalinclude") return "";
      return fenced(name == "parsed-literal" ? "" : argument, content);
    }
    if (name == "doctest" || name == "testcode" || name == "testoutput") return fenced("python", content);
    if (isCallout(name)) {
      std::string lead;
      if (name == "versionadded") lead = "New in version " + argument + ".";
      else if (name == "versionchanged") lead = "Changed in version " + argument + ".";
      else if (name == "deprecated") lead = "Deprecated since version " + argument + ".";
      else if (name == "admonition") lead = "**" + argument + "**";
      else lead = argument;
      std::string inner = (lead.empty() ? "" : inlineMarkdown(lead) + "\n\n") + convert(content, depth + 1);
      std::string out = "> [!" + calloutKind(name) + "]\n";
      for (std::size_t at = 0; at < inner.size();) {
        auto end = inner.find('\n', at);
        std::string part = inner.substr(at, end == std::string::npos ? std::string::npos : end - at);
        out += part.empty() ? ">\n" : "> " + part + "\n";
        at = end == std::string::npos ? inner.size() : end + 1;
      }
      return out + "\n";
    }
    if (name == "image" || name == "figure") {
      std::string out = "![](" + argument + ")\n\n";
      if (name == "figure" && !content.empty()) out += convert(content, depth + 1);
      return out;
    }
    if (name.rfind("auto", 0) == 0 && !argument.empty())  // autodoc: the generated entry goes here
      return apiMarker(trimmed(argument.substr(0, argument.find('(')))) + "\n\n";
    if (isApiDirective(name) && !argument.empty()) {
      std::string signature = argument.substr(0, argument.find('('));
      return "`" + signature + "`\n\n" + convert(content, depth + 1);
    }
    if (name == "rubric" || name == "topic" || name == "sidebar")
      return "**" + inlineMarkdown(argument) + "**\n\n" + convert(content, depth + 1);
    if (name == "container" || name == "only" || name == "tab" || name == "group-tab" || name == "tabs" ||
        name == "centered")
      return convert(content, depth + 1);
    return "";  // toctree, include, contents, index, automodule options ...
  }

  std::map<std::string, int> levels_;
};

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
      line.clear();
    } else if (c == '\t') {
      line.append(8 - line.size() % 8, ' ');  // reStructuredText's tab stops
    } else {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

}  // namespace

std::string restructuredTextInline(const std::string& text) { return inlineMarkdown(text); }

std::string restructuredTextRole(const std::string& role, std::string content) {
  std::string name = role;
  if (name.rfind("py:", 0) == 0 || name.rfind("c:", 0) == 0 || name.rfind("js:", 0) == 0 ||
      name.rfind("cpp:", 0) == 0 || name.rfind("std:", 0) == 0)
    name = name.substr(name.find(':') + 1);
  return roleText(name, std::move(content));
}

std::string admonitionAlertKind(const std::string& directive) {
  return isCallout(directive) ? calloutKind(directive) : std::string();
}

std::string restructuredTextToMarkdown(std::string_view rst) { return Converter().convert(splitLines(rst), 0); }

std::string documentAsMarkdown(const std::string& path, std::string_view text) {
  auto dot = path.rfind('.');
  std::string extension = dot == std::string::npos ? "" : path.substr(dot);
  for (auto& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".rst" || extension == ".rest") return restructuredTextToMarkdown(text);
  if (extension == ".mdx") {
    // MDX: its `import` and `export` lines are code for the site's build, not text.
    std::string kept;
    bool fence = false;
    for (const auto& line : splitLines(text)) {
      if (line.rfind("```", 0) == 0) fence = !fence;
      if (!fence && (line.rfind("import ", 0) == 0 || line.rfind("export ", 0) == 0)) continue;
      kept += line + "\n";
    }
    return mystToMarkdown(kept);
  }
  return mystToMarkdown(text);
}

}  // namespace docs_generation
