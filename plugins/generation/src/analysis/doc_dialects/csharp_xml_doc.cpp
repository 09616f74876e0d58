#include "analysis/doc_dialects/csharp_xml_doc.hpp"

#include <cctype>

namespace docs_generation {

namespace {

std::string lowered(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An attribute's value in a tag's text (`name="x"`), or "".
std::string attribute(std::string_view tag, std::string_view name) {
  std::string needle = std::string(name) + "=";
  auto at = tag.find(needle);
  if (at == std::string_view::npos) return "";
  at += needle.size();
  if (at >= tag.size() || (tag[at] != '"' && tag[at] != '\'')) return "";
  auto close = tag.find(tag[at], at + 1);
  return close == std::string_view::npos ? "" : std::string(tag.substr(at + 1, close - at - 1));
}

// "T:System.Collections.Generic.List`1" -> "List": a cref reads as its simple name.
std::string crefName(std::string cref) {
  if (cref.size() > 2 && cref[1] == ':') cref = cref.substr(2);
  auto paren = cref.find('(');
  std::string head = cref.substr(0, paren);
  auto dot = head.rfind('.');
  std::string name = dot == std::string::npos ? cref : cref.substr(dot + 1);
  auto tick = name.find('`');
  if (tick != std::string::npos) name = name.substr(0, tick);
  return name;
}

std::string decodeEntities(std::string text) {
  for (const auto& [entity, value] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                      {"&gt;", ">"},
                                      {"&quot;", "\""},
                                      {"&apos;", "'"},
                                      {"&amp;", "&"}}) {
    std::size_t at = 0;
    while ((at = text.find(entity, at)) != std::string::npos) {
      text.replace(at, entity.size(), value);
      at += value.size();
    }
  }
  return text;
}

// The XML of one section's content as Markdown.
std::string contentMarkdown(std::string_view xml) {
  std::string out;
  std::size_t at = 0;
  int listDepth = 0;
  while (at < xml.size()) {
    auto open = xml.find('<', at);
    std::string_view text = xml.substr(at, open == std::string_view::npos ? std::string_view::npos : open - at);
    out += decodeEntities(std::string(text));
    if (open == std::string_view::npos) break;
    auto close = xml.find('>', open);
    if (close == std::string_view::npos) {
      out += decodeEntities(std::string(xml.substr(open)));
      break;
    }
    std::string_view tag = xml.substr(open + 1, close - open - 1);
    bool ending = tag.starts_with("/");
    std::string name =
        lowered(tag.substr(ending ? 1 : 0, tag.find_first_of(" /\t\n", ending ? 1 : 0) - (ending ? 1 : 0)));
    at = close + 1;
    if (name == "c") {
      if (!ending) {
        auto end = xml.find("</c>", at);
        std::string code = decodeEntities(std::string(xml.substr(at, end == std::string_view::npos ? end : end - at)));
        out += "`" + code + "`";
        at = end == std::string_view::npos ? xml.size() : end + 4;
      }
    } else if (name == "code") {
      if (!ending) {
        auto end = xml.find("</code>", at);
        std::string code = decodeEntities(std::string(xml.substr(at, end == std::string_view::npos ? end : end - at)));
        out += "\n\n```csharp\n" + doc_text::cleanIndentation(code) + "\n```\n\n";
        at = end == std::string_view::npos ? xml.size() : end + 7;
      }
    } else if (name == "see" || name == "seealso") {
      std::string cref = attribute(tag, "cref"), langword = attribute(tag, "langword"), href = attribute(tag, "href");
      if (!cref.empty()) out += "`" + crefName(cref) + "`";
      else if (!langword.empty()) out += "`" + langword + "`";
      else if (!href.empty()) {
        auto end = tag.ends_with("/") ? std::string_view::npos : xml.find("</see>", at);
        std::string label = end == std::string_view::npos ? href : std::string(xml.substr(at, end - at));
        out += "[" + label + "](" + href + ")";
        if (end != std::string_view::npos) at = end + 6;
      }
    } else if (name == "paramref" || name == "typeparamref") {
      out += "`" + attribute(tag, "name") + "`";
    } else if (name == "para" || name == "br") {
      out += "\n\n";
    } else if (name == "list") {
      listDepth += ending ? -1 : 1;
      out += "\n\n";
    } else if (name == "item") {
      if (!ending) out += "\n- ";
    } else if (name == "term" && ending) {
      out += ": ";
    } else if (name == "inheritdoc") {
      out += "(As documented by the member it overrides or implements.)";
    }
    // Other tags (<description>, <b>, <i>, unknown ones) keep their text only.
  }
  // Each line's indentation is the comment's, not Markdown's.
  std::string joined;
  std::size_t start = 0;
  bool fence = false;
  while (start <= out.size()) {
    auto end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    std::string line = out.substr(start, end - start);
    start = end + 1;
    if (line.rfind("```", 0) == 0) fence = !fence;
    if (!fence) line.erase(0, line.find_first_not_of(" \t"));
    joined += line + "\n";
  }
  return doc_text::cleanIndentation(joined);
}

// The content of each top-level element `<name ...>...</name>` (or `<name .../>`) in turn.
struct Element {
  std::string name, tag, content;
};
std::vector<Element> elements(std::string_view xml) {
  std::vector<Element> out;
  std::size_t at = 0;
  while ((at = xml.find('<', at)) != std::string_view::npos && out.size() < 200) {
    auto close = xml.find('>', at);
    if (close == std::string_view::npos) break;
    std::string_view tag = xml.substr(at + 1, close - at - 1);
    if (tag.starts_with("/") || tag.starts_with("!") || tag.starts_with("?")) {
      at = close + 1;
      continue;
    }
    std::string name = lowered(tag.substr(0, tag.find_first_of(" /\t\n")));
    if (tag.ends_with("/")) {
      out.push_back({name, std::string(tag), ""});
      at = close + 1;
      continue;
    }
    auto end = xml.find("</" + name, close);
    std::size_t contentEnd = end == std::string_view::npos ? xml.size() : end;
    out.push_back({name, std::string(tag), std::string(xml.substr(close + 1, contentEnd - close - 1))});
    at = end == std::string_view::npos ? xml.size() : xml.find('>', end) + 1;
    if (at == 0) break;
  }
  return out;
}

}  // namespace

doc_text::RenderedDoc renderCsharpXmlDoc(std::string_view comments) {
  std::string xml;
  std::size_t at = 0;
  while (at < comments.size()) {
    auto end = comments.find('\n', at);
    if (end == std::string_view::npos) end = comments.size();
    std::string_view line = comments.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.starts_with("///")) line.remove_prefix(3);
    else if (line.starts_with("/**")) line.remove_prefix(3);
    else if (line.starts_with("*/")) continue;
    else if (line.starts_with("*")) line.remove_prefix(1);
    xml.append(line);
    xml += '\n';
  }
  doc_text::Sections sections;
  std::string summary, remarks, example, value;
  bool structured = xml.find('<') != std::string::npos;
  if (!structured) summary = doc_text::cleanIndentation(xml);  // a plain `///` comment
  for (const auto& element : structured ? elements(xml) : std::vector<Element>{}) {
    std::string text = contentMarkdown(element.content);
    if (element.name == "summary") summary += (summary.empty() ? "" : "\n\n") + text;
    else if (element.name == "remarks") remarks += (remarks.empty() ? "" : "\n\n") + text;
    else if (element.name == "example") example += (example.empty() ? "" : "\n\n") + text;
    else if (element.name == "value") value = text;
    else if (element.name == "param") sections.parameters.push_back({attribute(element.tag, "name"), "", text, ""});
    else if (element.name == "typeparam")
      sections.parameters.push_back({"<" + attribute(element.tag, "name") + ">", "", text, ""});
    else if (element.name == "returns") sections.returns.push_back({"", "", text, ""});
    else if (element.name == "exception")
      sections.raises.push_back({"", crefName(attribute(element.tag, "cref")), text, ""});
    else if (element.name == "seealso")
      sections.notes.emplace_back("See also", "`" + crefName(attribute(element.tag, "cref")) + "`");
    else if (element.name == "inheritdoc") summary += "(As documented by the member it overrides or implements.)";
  }
  sections.body = summary;
  if (!value.empty()) sections.body += "\n\n**Value**\n\n" + value;
  if (!remarks.empty()) sections.body += "\n\n**Remarks**\n\n" + remarks;
  if (!example.empty()) sections.body += "\n\n**Example**\n\n" + example;
  doc_text::RenderedDoc out;
  out.markdown = doc_text::toMarkdown(sections);
  while (!out.markdown.empty() && out.markdown.back() == '\n') out.markdown.pop_back();
  out.summary = doc_text::firstSentence(summary);
  return out;
}

}  // namespace docs_generation
