#include "writing/page_nodes.hpp"

namespace docs_generation {

using docs::ydoc::Json;

std::string fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    std::string token = "{" + key + "}";
    for (auto at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  return text;
}

Json textNode(const std::string& text, Json marks) {
  Json node = {{"type", "text"}, {"text", text}};
  if (!marks.is_null()) node["marks"] = std::move(marks);
  return node;
}
Json codeText(const std::string& text) { return textNode(text, Json::array({{{"type", "code"}}})); }
Json linkText(const std::string& text, const std::string& href, bool code) {
  if (href.empty()) return code ? codeText(text) : textNode(text);
  Json marks = Json::array({{{"type", "link"}, {"attrs", {{"href", href}}}}});
  if (code) marks.push_back({{"type", "code"}});
  return textNode(text, marks);
}
// Inline text where `backticked` spans become inline code.
Json inlineWithCode(const std::string& text) {
  Json parts = Json::array();
  std::size_t at = 0;
  while (at < text.size()) {
    auto open = text.find('`', at);
    auto close = open == std::string::npos ? std::string::npos : text.find('`', open + 1);
    if (open == std::string::npos || close == std::string::npos) {
      parts.push_back(textNode(text.substr(at)));
      break;
    }
    if (open > at) parts.push_back(textNode(text.substr(at, open - at)));
    if (close > open + 1) parts.push_back(codeText(text.substr(open + 1, close - open - 1)));
    at = close + 1;
  }
  return parts;
}
Json paragraph(Json inlines) {
  Json node = {{"type", "paragraph"}};
  if (inlines.is_array() && !inlines.empty()) node["content"] = std::move(inlines);
  return node;
}
Json paragraphText(const std::string& text) { return paragraph(text.empty() ? Json::array() : inlineWithCode(text)); }
Json heading(int level, const std::string& text) {
  return {{"type", "heading"}, {"attrs", {{"level", level}}}, {"content", Json::array({textNode(text)})}};
}
Json cell(Json inlines, bool header) {
  return {{"type", header ? "tableHeader" : "tableCell"}, {"content", Json::array({paragraph(std::move(inlines))})}};
}
Json table(const std::vector<std::string>& headers, const std::vector<std::vector<Json>>& rows) {
  Json content = Json::array();
  Json head = {{"type", "tableRow"}, {"content", Json::array()}};
  for (const auto& h : headers) head["content"].push_back(cell(Json::array({textNode(h)}), true));
  content.push_back(head);
  for (const auto& row : rows) {
    Json r = {{"type", "tableRow"}, {"content", Json::array()}};
    for (const auto& c : row) r["content"].push_back(cell(c, false));
    content.push_back(r);
  }
  return {{"type", "table"}, {"content", content}};
}
Json codeBlock(const std::string& language, const std::string& code, const std::string& gitUrl) {
  Json node = {{"type", "codeBlock"},
               {"attrs",
                {{"language", language.empty() ? Json(nullptr) : Json(language)},
                 {"git_url", gitUrl.empty() ? Json(nullptr) : Json(gitUrl)}}}};
  if (!code.empty()) node["content"] = Json::array({textNode(code)});
  return node;
}
Json alert(const std::string& type, const std::string& text) {
  return {{"type", "alert"}, {"attrs", {{"type", type}}}, {"content", Json::array({paragraphText(text)})}};
}
Json bulletList(const std::vector<Json>& items) {
  Json list = {{"type", "bulletList"}, {"content", Json::array()}};
  for (const auto& inlines : items)
    list["content"].push_back({{"type", "listItem"}, {"content", Json::array({paragraph(inlines)})}});
  return list;
}
Json doc(Json blocks) { return {{"type", "doc"}, {"content", std::move(blocks)}}; }

}  // namespace docs_generation
