// ProseMirror JSON -> GitHub-flavoured Markdown.
#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "docs/ydoc/prosemirror.hpp"

namespace docs::ydoc {
namespace {

const Json kEmpty = Json::array();

const Json& contentOf(const Json& node) {
  auto it = node.find("content");
  return it != node.end() && it->is_array() ? *it : kEmpty;
}

std::string typeOf(const Json& node) { return node.value("type", std::string()); }

Json attrOf(const Json& node, const char* name) {
  auto a = node.find("attrs");
  if (a == node.end() || !a->is_object()) return nullptr;
  auto v = a->find(name);
  return v == a->end() ? Json(nullptr) : *v;
}

std::string attrString(const Json& node, const char* name) {
  const Json v = attrOf(node, name);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return jsStringify(v);
  return {};
}

std::string escapeText(const std::string& s, bool inTable) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '<':
      case '>':
      case '~':
        out.push_back('\\');
        out.push_back(c);
        break;
      case '|': out += inTable ? "\\|" : "|"; break;
      case '\n': out += inTable ? "<br>" : "\n"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

// Escapes what would turn the start of a line into block syntax.
std::string escapeLineStart(const std::string& s) {
  if (s.empty()) return s;
  const char c = s[0];
  if (c == '#' || c == '+' || c == '-' || c == '=') return "\\" + s;
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i > 0 && i < s.size() && (s[i] == '.' || s[i] == ')')) return s.substr(0, i) + "\\" + s.substr(i);
  return s;
}

// Only http(s), mailto and relative URLs survive; javascript: and friends become "#".
std::string allowedUrl(const std::string& url) {
  std::string lower;
  for (const char c : url) {
    if (static_cast<unsigned char>(c) > 0x20)
      lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  const auto colon = lower.find(':');
  const auto slash = lower.find_first_of("/?#");
  if (colon != std::string::npos && (slash == std::string::npos || colon < slash)) {
    const std::string scheme = lower.substr(0, colon);
    if (scheme != "http" && scheme != "https" && scheme != "mailto") return "#";
  }
  return url;
}

std::string safeUrl(const std::string& rawUrl) {
  const std::string url = allowedUrl(rawUrl);
  std::string out;
  for (const char c : url) {
    if (c == ' ') out += "%20";
    else if (c == '(') out += "%28";
    else if (c == ')') out += "%29";
    else if (c == '\n' || c == '\r') continue;
    else out.push_back(c);
  }
  return out;
}

bool hasMark(const Json& text, const char* type) {
  auto m = text.find("marks");
  if (m == text.end()) return false;
  return std::any_of(m->begin(), m->end(), [&](const Json& mark) { return mark.value("type", "") == type; });
}

std::string inlineCode(const std::string& s) {
  size_t longest = 0;
  size_t run = 0;
  for (const char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

std::string renderInline(const Json& nodes, bool inTable) {
  std::string out;
  for (const Json& n : nodes) {
    const std::string type = typeOf(n);
    if (type == "hardBreak") {
      out += inTable ? "<br>" : "\\\n";
      continue;
    }
    if (type == "image") {
      out += "![" + escapeText(attrString(n, "alt"), inTable) + "](" + safeUrl(attrString(n, "src")) + ")";
      continue;
    }
    if (type != "text") continue;
    const std::string raw = n.value("text", std::string());
    if (hasMark(n, "code")) {
      std::string code = inlineCode(raw);
      if (hasMark(n, "link")) {
        std::string href;
        for (const auto& m : n["marks"]) {
          if (m.value("type", "") == "link") href = attrString(m, "href");
        }
        code = "[" + code + "](" + safeUrl(href) + ")";
      }
      out += code;
      continue;
    }
    // keep surrounding spaces outside emphasis markers so they stay valid
    const size_t first = raw.find_first_not_of(' ');
    if (first == std::string::npos) {
      out += raw;
      continue;
    }
    const size_t last = raw.find_last_not_of(' ');
    std::string body = escapeText(raw.substr(first, last - first + 1), inTable);
    std::string open;
    std::string close;
    std::string href;
    for (const auto& m : n.value("marks", Json::array())) {
      const std::string mt = m.value("type", "");
      if (mt == "bold") {
        open += "**";
        close = "**" + close;
      } else if (mt == "italic") {
        open += "*";
        close = "*" + close;
      } else if (mt == "strike") {
        open += "~~";
        close = "~~" + close;
      } else if (mt == "underline") {
        open += "<u>";
        close = "</u>" + close;
      } else if (mt == "link") href = attrString(m, "href");
    }
    body = open + body + close;
    if (!href.empty()) body = "[" + body + "](" + safeUrl(href) + ")";
    out += raw.substr(0, first) + body + raw.substr(last + 1);
  }
  return out;
}

std::string prefixLines(const std::string& text, const std::string& first, const std::string& rest) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  bool isFirst = true;
  while (std::getline(in, line)) {
    const std::string& p = isFirst ? first : rest;
    if (line.empty() && !isFirst) {
      std::string trimmed = p;
      while (!trimmed.empty() && trimmed.back() == ' ') trimmed.pop_back();
      out += trimmed + "\n";
    } else {
      out += p + line + "\n";
    }
    isFirst = false;
  }
  if (isFirst) out += first + "\n";
  return out;
}

std::string renderBlocks(const Json& nodes, bool tight);
std::string renderBlock(const Json& node);

std::string renderTable(const Json& table) {
  std::vector<std::vector<std::string>> rows;
  for (const Json& row : contentOf(table)) {
    std::vector<std::string> cells;
    for (const Json& cell : contentOf(row)) {
      std::string text;
      for (const Json& block : contentOf(cell)) {
        if (!text.empty()) text += "<br>";
        text += renderInline(contentOf(block), true);
      }
      cells.push_back(text);
    }
    rows.push_back(std::move(cells));
  }
  if (rows.empty()) return {};
  size_t cols = 0;
  for (const auto& r : rows) cols = std::max(cols, r.size());
  if (cols == 0) return {};
  std::string out;
  const auto emit = [&](const std::vector<std::string>& r) {
    out += "|";
    for (size_t i = 0; i < cols; ++i) out += " " + (i < r.size() ? r[i] : std::string()) + " |";
    out += "\n";
  };
  emit(rows[0]);
  out += "|";
  for (size_t i = 0; i < cols; ++i) out += " --- |";
  out += "\n";
  for (size_t i = 1; i < rows.size(); ++i) emit(rows[i]);
  return out;
}

// A number attribute as an int within [lo, hi]. Documents may carry any double (a fuzzed
// one had -1.9e37), and converting one outside int's range is undefined behaviour.
int intAttr(const Json& value, int fallback, int lo, int hi) {
  if (!value.is_number()) return fallback;
  const double number = value.get<double>();
  if (std::isnan(number)) return fallback;
  return static_cast<int>(std::clamp(number, static_cast<double>(lo), static_cast<double>(hi)));
}

std::string renderList(const Json& list, const std::string& type) {
  std::string out;
  int number = 1;
  if (type == "orderedList") {
    // CommonMark list numbers have at most 9 digits.
    number = intAttr(attrOf(list, "start"), 1, 0, 999999999);
  }
  for (const Json& item : contentOf(list)) {
    std::string marker;
    if (type == "orderedList") {
      marker = std::to_string(number++) + ". ";
    } else if (type == "taskList") {
      marker = attrOf(item, "checked") == Json(true) ? "- [x] " : "- [ ] ";
    } else {
      marker = "- ";
    }
    std::string body;
    const Json& blocks = contentOf(item);
    for (size_t b = 0; b < blocks.size(); ++b) {
      // an ordered list not starting at 1 cannot interrupt a paragraph: leave a blank line
      const bool gap = b > 0 && typeOf(blocks[b]) == "orderedList" && attrOf(blocks[b], "start") != Json(1);
      if (gap) body += "\n";
      body += renderBlock(blocks[b]);
    }
    while (!body.empty() && body.back() == '\n') body.pop_back();
    out += prefixLines(body, marker, std::string(type == "taskList" ? 2 : marker.size(), ' '));
  }
  return out;
}

std::string alertLabel(const std::string& type) {
  if (type == "error") return "CAUTION";
  if (type == "warning") return "WARNING";
  if (type == "success") return "TIP";
  return "NOTE";
}

std::string renderBlock(const Json& node) {
  const std::string type = typeOf(node);
  if (type == "paragraph") return escapeLineStart(renderInline(contentOf(node), false)) + "\n";
  if (type == "heading") {
    const int n = intAttr(attrOf(node, "level"), 1, 1, 6);
    return std::string(static_cast<size_t>(n), '#') + " " + renderInline(contentOf(node), false) + "\n";
  }
  if (type == "bulletList" || type == "orderedList" || type == "taskList") return renderList(node, type);
  if (type == "blockquote") return prefixLines(renderBlocks(contentOf(node), false), "> ", "> ");
  if (type == "alert") {
    std::string body = renderBlocks(contentOf(node), false);
    return prefixLines("[!" + alertLabel(attrString(node, "type")) + "]\n" + body, "> ", "> ");
  }
  if (type == "codeBlock") {
    std::string code;
    for (const Json& t : contentOf(node)) code += t.value("text", std::string());
    size_t longest = 2;
    size_t run = 0;
    for (const char c : code) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    std::string out = fence + attrString(node, "language") + "\n" + code;
    if (!code.empty() && code.back() != '\n') out += "\n";
    return out + fence + "\n";
  }
  if (type == "table") return renderTable(node);
  if (type == "image") {
    std::string title = attrString(node, "title");
    std::string out = "![" + escapeText(attrString(node, "alt"), false) + "](" + safeUrl(attrString(node, "src"));
    if (!title.empty()) {
      std::string t;
      for (const char c : title) t += c == '"' ? std::string("\\\"") : std::string(1, c);
      out += " \"" + t + "\"";
    }
    return out + ")\n";
  }
  if (type == "video") return "[Video](" + safeUrl(attrString(node, "src")) + ")\n";
  if (type == "drawing") return "<!-- drawing -->\n";
  if (type == "horizontalRule") return "---\n";
  // unknown containers: render their children
  return renderBlocks(contentOf(node), false);
}

std::string renderBlocks(const Json& nodes, bool tight) {
  std::string out;
  bool first = true;
  for (const Json& n : nodes) {
    const std::string block = renderBlock(n);
    if (block.empty()) continue;
    if (!first) out += tight ? "" : "\n";
    out += block;
    first = false;
  }
  return out;
}

}  // namespace

std::string toMarkdown(const Json& pm) { return renderBlocks(contentOf(pm), false); }

}  // namespace docs::ydoc
