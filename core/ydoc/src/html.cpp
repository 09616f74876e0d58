// ProseMirror JSON -> escaped HTML and plain text.
#include <algorithm>

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

std::string attrString(const Json& node, const char* name) {
  auto a = node.find("attrs");
  if (a == node.end() || !a->is_object()) return {};
  auto v = a->find(name);
  if (v == a->end()) return {};
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number() || v->is_boolean()) return jsStringify(*v);
  return {};
}

std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

// Only http(s), mailto and relative URLs survive; everything else (javascript:,
// data:, vbscript: ...) becomes "#".
std::string safeUrl(const std::string& url) {
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

std::string renderNodes(const Json& nodes);

std::string renderText(const Json& n) {
  std::string out = escape(n.value("text", std::string()));
  auto marks = n.find("marks");
  if (marks == n.end()) return out;
  // apply marks inside-out so the first mark is the outermost element
  for (auto it = marks->rbegin(); it != marks->rend(); ++it) {
    const std::string t = it->value("type", "");
    if (t == "bold") out = "<strong>" + out + "</strong>";
    else if (t == "italic") out = "<em>" + out + "</em>";
    else if (t == "underline") out = "<u>" + out + "</u>";
    else if (t == "strike") out = "<s>" + out + "</s>";
    else if (t == "code") out = "<code>" + out + "</code>";
    else if (t == "link") {
      std::string a = "<a href=\"" + escape(safeUrl(attrString(*it, "href"))) + "\"";
      const std::string target = attrString(*it, "target");
      if (!target.empty()) a += " target=\"" + escape(target) + "\"";
      a += " rel=\"noopener noreferrer nofollow\"";
      out = a + ">" + out + "</a>";
    }
  }
  return out;
}

std::string cellAttrs(const Json& cell) {
  std::string out;
  const std::string colspan = attrString(cell, "colspan");
  const std::string rowspan = attrString(cell, "rowspan");
  if (!colspan.empty() && colspan != "1") out += " colspan=\"" + escape(colspan) + "\"";
  if (!rowspan.empty() && rowspan != "1") out += " rowspan=\"" + escape(rowspan) + "\"";
  return out;
}

std::string renderNode(const Json& n) {
  const std::string type = typeOf(n);
  std::string inner = type == "text" ? std::string() : renderNodes(contentOf(n));
  if (type == "text") return renderText(n);
  if (type == "paragraph") return "<p>" + inner + "</p>";
  if (type == "heading") {
    std::string level = attrString(n, "level");
    if (level != "1" && level != "2" && level != "3" && level != "4" && level != "5" && level != "6") level = "1";
    return "<h" + level + ">" + inner + "</h" + level + ">";
  }
  if (type == "bulletList") return "<ul>" + inner + "</ul>";
  if (type == "orderedList") {
    const std::string start = attrString(n, "start");
    return (start.empty() || start == "1" ? "<ol>" : "<ol start=\"" + escape(start) + "\">") + inner + "</ol>";
  }
  if (type == "listItem") return "<li>" + inner + "</li>";
  if (type == "taskList") return "<ul data-type=\"taskList\">" + inner + "</ul>";
  if (type == "taskItem") {
    const bool checked = attrString(n, "checked") == "true";
    return std::string("<li data-type=\"taskItem\" data-checked=\"") + (checked ? "true" : "false") +
           "\"><input type=\"checkbox\" disabled" + (checked ? " checked" : "") + "> " + inner + "</li>";
  }
  if (type == "blockquote") return "<blockquote>" + inner + "</blockquote>";
  if (type == "alert") {
    std::string kind = attrString(n, "type");
    if (kind != "error" && kind != "warning" && kind != "success") kind = "info";
    return "<div class=\"alert alert-" + kind + "\" data-type=\"alert\" data-alert-type=\"" + kind + "\">" + inner +
           "</div>";
  }
  if (type == "codeBlock") {
    const std::string lang = attrString(n, "language");
    std::string code;
    for (const Json& t : contentOf(n)) code += t.value("text", std::string());
    return "<pre><code" + (lang.empty() ? std::string() : " class=\"language-" + escape(lang) + "\"") + ">" +
           escape(code) + "</code></pre>";
  }
  if (type == "table") return "<table><tbody>" + inner + "</tbody></table>";
  if (type == "tableRow") return "<tr>" + inner + "</tr>";
  if (type == "tableHeader") return "<th" + cellAttrs(n) + ">" + inner + "</th>";
  if (type == "tableCell") return "<td" + cellAttrs(n) + ">" + inner + "</td>";
  if (type == "image") {
    std::string out = "<img src=\"" + escape(safeUrl(attrString(n, "src"))) + "\"";
    for (const char* a : {"alt", "title", "width", "height"}) {
      const std::string v = attrString(n, a);
      if (!v.empty()) out += std::string(" ") + a + "=\"" + escape(v) + "\"";
    }
    return out + ">";
  }
  if (type == "video") return "<video src=\"" + escape(safeUrl(attrString(n, "src"))) + "\" controls></video>";
  if (type == "drawing") return "<div data-type=\"drawing\"></div>";
  if (type == "horizontalRule") return "<hr>";
  if (type == "hardBreak") return "<br>";
  return inner;  // unknown nodes: keep their (escaped) content only
}

std::string renderNodes(const Json& nodes) {
  std::string out;
  for (const Json& n : nodes) out += renderNode(n);
  return out;
}

void collectText(const Json& node, std::string& out, bool& lineOpen) {
  const std::string type = typeOf(node);
  if (type == "text") {
    out += node.value("text", std::string());
    lineOpen = true;
    return;
  }
  if (type == "hardBreak") {
    out += "\n";
    return;
  }
  const Json& content = contentOf(node);
  const bool textBlock = !content.empty() && std::any_of(content.begin(), content.end(), [](const Json& c) {
    const std::string t = typeOf(c);
    return t == "text" || t == "hardBreak";
  });
  if (textBlock || type == "paragraph" || type == "heading" || type == "codeBlock") {
    if (lineOpen) out += "\n";
    for (const Json& c : content) collectText(c, out, lineOpen);
    out += "\n";
    lineOpen = false;
    return;
  }
  for (const Json& c : content) collectText(c, out, lineOpen);
}

}  // namespace

std::string toHtml(const Json& pm) { return renderNodes(contentOf(pm)); }

std::string toPlainText(const Json& pm) {
  std::string out;
  bool lineOpen = false;
  collectText(pm, out, lineOpen);
  return out;
}

}  // namespace docs::ydoc
