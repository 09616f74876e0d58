#include "analysis/doc_dialects/python_docstring.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "analysis/doc_dialects/doc_text.hpp"
#include "writing/rst_markdown.hpp"

namespace docs_generation {

namespace {

using doc_text::Field;
using doc_text::Sections;

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::size_t indentOf(const std::string& line) {
  auto first = line.find_first_not_of(' ');
  return first == std::string::npos ? std::string::npos : first;
}

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

enum class Kind { None, Parameters, Returns, Raises, Admonition, Titled };

// A section name of Google or NumPy style, and what it holds.
Kind sectionKind(const std::string& name, std::string& title) {
  std::string n = lower(name);
  title = name;
  if (n == "args" || n == "arguments" || n == "parameters" || n == "params" || n == "keyword args" ||
      n == "keyword arguments" || n == "other parameters" || n == "kwargs")
    return Kind::Parameters;
  if (n == "returns" || n == "return" || n == "yields" || n == "yield") return Kind::Returns;
  if (n == "raises" || n == "raise" || n == "exceptions" || n == "except" || n == "warns") return Kind::Raises;
  if (n == "note" || n == "notes" || n == "warning" || n == "warnings" || n == "tip" || n == "important" ||
      n == "caution" || n == "danger" || n == "hint" || n == "attention")
    return Kind::Admonition;
  if (n == "example" || n == "examples" || n == "see also" || n == "references" || n == "attributes" ||
      n == "methods" || n == "todo" || n == "usage")
    return Kind::Titled;
  return Kind::None;
}

std::string inlineText(const std::string& text) { return restructuredTextInline(text); }

// "name (type, optional): description" (Google) or "name : type" (NumPy head).
Field googleEntry(const std::string& head) {
  Field f;
  auto colon = head.find(':');
  std::string left = trim(colon == std::string::npos ? head : head.substr(0, colon));
  if (colon != std::string::npos) f.description = trim(head.substr(colon + 1));
  auto open = left.find('(');
  if (open != std::string::npos && left.back() == ')') {
    f.type = trim(left.substr(open + 1, left.size() - open - 2));
    left = trim(left.substr(0, open));
  }
  f.name = left;
  return f;
}

Field numpyEntry(const std::string& head) {
  Field f;
  auto colon = head.find(" : ");
  if (colon == std::string::npos && head.size() > 2 && head.ends_with(" :")) colon = head.size() - 2;
  if (colon == std::string::npos) {
    f.name = trim(head);
    return f;
  }
  f.name = trim(head.substr(0, colon));
  f.type = trim(head.substr(std::min(head.size(), colon + 3)));
  return f;
}

bool isUnderline(const std::string& line) {
  std::string t = trim(line);
  return t.size() >= 3 && std::all_of(t.begin(), t.end(), [](char c) { return c == '-' || c == '='; });
}

// The description lines of an entry: the lines after `from` indented more than `base`.
std::string continuation(const std::vector<std::string>& lines, std::size_t& i, std::size_t base) {
  std::string text;
  while (i + 1 < lines.size()) {
    const auto& next = lines[i + 1];
    std::size_t indent = indentOf(next);
    if (indent != std::string::npos && indent <= base) break;
    if (indent == std::string::npos) {
      // A blank line ends the entry unless more of it follows, indented.
      std::size_t k = i + 1;
      while (k < lines.size() && indentOf(lines[k]) == std::string::npos) ++k;
      if (k == lines.size() || indentOf(lines[k]) <= base) break;
      text += "\n";
      ++i;
      continue;
    }
    if (!text.empty() && text.back() != '\n') text += ' ';
    text += trim(next);
    ++i;
  }
  return text;
}

void addEntry(Sections& s, Kind kind, Field f) {
  f.description = inlineText(f.description);
  if (kind == Kind::Parameters) s.parameters.push_back(std::move(f));
  else if (kind == Kind::Returns) s.returns.push_back(std::move(f));
  else if (kind == Kind::Raises) s.raises.push_back(std::move(f));
}

// One reST field (":param int x: text"), into the sections; false when the line is none.
bool restField(const std::string& line, const std::vector<std::string>& lines, std::size_t& i, Sections& s) {
  if (line.size() < 3 || line[0] != ':') return false;
  auto close = line.find(':', 1);
  // ":param x: text", never a role at a line's start (":class:`Foo` is ...").
  if (close == std::string::npos || close == 1 || (close + 1 < line.size() && line[close + 1] != ' ')) return false;
  std::string head = line.substr(1, close - 1);
  if (head.find('`') != std::string::npos) return false;
  std::string text = trim(line.substr(close + 1));
  std::string more = continuation(lines, i, 0);
  if (!more.empty()) text += (text.empty() ? "" : " ") + more;
  std::vector<std::string> words;
  for (std::size_t at = 0; at < head.size();) {
    auto next = head.find(' ', at);
    if (next == std::string::npos) next = head.size();
    if (next > at) words.push_back(head.substr(at, next - at));
    at = next + 1;
  }
  if (words.empty()) return false;
  const std::string& tag = words[0];
  auto param = [&](const std::string& name) -> Field& {
    for (auto& f : s.parameters)
      if (f.name == name) return f;
    s.parameters.push_back({name, "", "", ""});
    return s.parameters.back();
  };
  if ((tag == "param" || tag == "parameter" || tag == "arg" || tag == "argument" || tag == "key" || tag == "keyword") &&
      words.size() >= 2) {
    Field& f = param(words.back());
    if (words.size() >= 3) f.type = head.substr(head.find(' ') + 1, head.rfind(' ') - head.find(' ') - 1);
    f.description = inlineText(text);
  } else if (tag == "type" && words.size() >= 2) {
    param(words.back()).type = inlineText(text);
  } else if (tag == "returns" || tag == "return") {
    if (s.returns.empty()) s.returns.push_back({});
    s.returns[0].description = inlineText(text);
  } else if (tag == "rtype") {
    if (s.returns.empty()) s.returns.push_back({});
    s.returns[0].type = inlineText(text);
  } else if ((tag == "raises" || tag == "raise" || tag == "except" || tag == "exception") && words.size() >= 2) {
    s.raises.push_back({words[1], "", inlineText(text), ""});
  } else if (tag == "yields" || tag == "yield") {
    s.returns.push_back({"yields", "", inlineText(text), ""});
  } else if (tag == "ivar" || tag == "var" || tag == "cvar") {
    s.notes.emplace_back("Attribute `" + (words.size() >= 2 ? words.back() : std::string()) + "`", inlineText(text));
  } else if (tag == "meta" || tag == "vartype") {
    // Not shown (Sphinx hides :meta: too).
  } else {
    s.notes.emplace_back(inlineText(head), inlineText(text));
  }
  return true;
}

}  // namespace

std::string pythonDocstringMarkdown(std::string_view docstring) {
  std::string cleaned = doc_text::cleanIndentation(docstring);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= cleaned.size();) {
    auto end = cleaned.find('\n', at);
    if (end == std::string::npos) end = cleaned.size();
    lines.push_back(cleaned.substr(at, end - at));
    at = end + 1;
  }
  Sections s;
  std::string body;  // reST, converted at the end
  auto appendBody = [&](const std::string& line) {
    body += line;
    body += '\n';
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (indentOf(line) == 0 && restField(line, lines, i, s)) continue;
    // A section header: "Args:" (Google) or "Parameters" over "----------" (NumPy).
    std::string title;
    Kind kind = Kind::None;
    bool numpy = false;
    if (indentOf(line) == 0) {
      std::string t = trim(line);
      if (t.size() > 1 && t.back() == ':' && i + 1 < lines.size() && indentOf(lines[i + 1]) != std::string::npos &&
          indentOf(lines[i + 1]) > 0)
        kind = sectionKind(t.substr(0, t.size() - 1), title);
      else if (i + 1 < lines.size() && isUnderline(lines[i + 1]) && trim(lines[i + 1]).size() >= t.size() / 2) {
        kind = sectionKind(t, title);
        numpy = kind != Kind::None;
      }
    }
    if (kind == Kind::None) {
      appendBody(line);
      continue;
    }
    i += numpy ? 2 : 1;
    // The section's lines: Google's are indented; NumPy's run to the next header or the end.
    std::vector<std::string> part;
    for (; i < lines.size(); ++i) {
      const auto& l = lines[i];
      std::size_t indent = indentOf(l);
      if (!numpy && indent == 0) break;
      if (numpy && indent == 0 && i + 1 < lines.size() && isUnderline(lines[i + 1])) break;
      if (numpy && indent == 0 && restField(l, lines, i, s)) continue;
      part.push_back(l);
    }
    --i;
    while (!part.empty() && trim(part.back()).empty()) part.pop_back();
    if (kind == Kind::Admonition || kind == Kind::Titled) {
      std::string text;
      for (const auto& l : part) text += l + "\n";
      text = doc_text::cleanIndentation("\n" + text);
      if (kind == Kind::Admonition) {
        appendBody(".. " + lower(title) + "::");
        appendBody("");
        for (std::size_t at = 0; at <= text.size();) {
          auto end = text.find('\n', at);
          if (end == std::string::npos) end = text.size();
          appendBody("   " + text.substr(at, end - at));
          at = end + 1;
        }
      } else {
        appendBody("");
        appendBody("**" + title + "**");
        appendBody("");
        appendBody(text);
      }
      appendBody("");
      continue;
    }
    // Entries: a head line at the section's indentation, its description below.
    std::size_t base = std::string::npos;
    for (const auto& l : part)
      if (indentOf(l) != std::string::npos) base = std::min(base, indentOf(l));
    for (std::size_t k = 0; k < part.size(); ++k) {
      if (indentOf(part[k]) != base) continue;
      std::string head = trim(part[k]);
      std::string more = continuation(part, k, base);
      Field f;
      if (numpy) {
        f = numpyEntry(head);
        if (kind == Kind::Returns && f.type.empty()) std::swap(f.name, f.type);
        f.description = more;
      } else if (kind == Kind::Returns) {
        // "type: description" or just a description.
        auto colon = head.find(": ");
        bool typed = colon != std::string::npos && colon < 60 && head.find(' ') >= colon;
        if (typed) {
          f.type = head.substr(0, colon);
          f.description = trim(head.substr(colon + 2));
        } else {
          f.description = head;
        }
        if (!more.empty()) f.description += " " + more;
      } else {
        f = googleEntry(head);
        if (kind == Kind::Raises && f.type.empty()) std::swap(f.name, f.type);
        if (!more.empty()) f.description += (f.description.empty() ? "" : " ") + more;
      }
      if (lower(title).starts_with("yield")) f.name = "yields";
      addEntry(s, kind, std::move(f));
    }
  }
  // Docstrings written for mkdocstrings are Markdown already (a ``` fence says so); the
  // rest are reStructuredText, as Sphinx reads them.
  bool markdown = false;
  for (const auto& line : lines) markdown = markdown || trim(line).starts_with("```");
  s.body = markdown ? body : restructuredTextToMarkdown(body);
  std::string out = doc_text::toMarkdown(s);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace docs_generation
