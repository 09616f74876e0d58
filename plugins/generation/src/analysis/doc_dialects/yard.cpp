#include "analysis/doc_dialects/yard.hpp"

#include <tuple>

namespace docs_generation {

namespace {

// The `#` lines without their markers, their common indentation removed.
std::string yardText(std::string_view comments) {
  std::string out;
  bool directive = false;
  std::size_t at = 0;
  while (at < comments.size()) {
    auto end = comments.find('\n', at);
    if (end == std::string_view::npos) end = comments.size();
    std::string_view line = comments.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.starts_with("=begin") || line.starts_with("=end")) continue;
    if (line.starts_with("#")) line.remove_prefix(1);
    if (line.starts_with(" ")) line.remove_prefix(1);
    // A directive (`@!attribute [r] name`) and its indented lines say how to document, not what.
    if (line.starts_with("@!")) {
      directive = true;
      continue;
    }
    if (directive && (line.starts_with(" ") || line.empty())) continue;
    directive = false;
    out.append(line);
    out += '\n';
  }
  return out;
}

// RDoc's `+code+` as a code span; the rest is Markdown already.
std::string rdocInline(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto open = text.find('+', at);
    if (open == std::string_view::npos) break;
    auto close = text.find('+', open + 1);
    bool word = close != std::string_view::npos && close > open + 1 &&
                text.substr(open + 1, close - open - 1).find_first_of(" \n") == std::string_view::npos &&
                (open == 0 || text[open - 1] == ' ' || text[open - 1] == '(' || text[open - 1] == '\n');
    if (!word) {
      out.append(text.substr(at, open + 1 - at));
      at = open + 1;
      continue;
    }
    out.append(text.substr(at, open - at));
    out += "`" + std::string(text.substr(open + 1, close - open - 1)) + "`";
    at = close + 1;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

// "[String, nil] rest" -> ("String, nil", "rest").
std::pair<std::string, std::string> typesAndRest(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (!text.starts_with("[")) return {"", std::string(text)};
  auto close = text.find(']');
  if (close == std::string_view::npos) return {"", std::string(text)};
  std::string_view rest = text.substr(close + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return {std::string(text.substr(1, close - 1)), std::string(rest)};
}

}  // namespace

YardDoc renderYard(std::string_view comments) {
  YardDoc out;
  auto tagged = doc_text::splitBlockTags(doc_text::cleanIndentation(yardText(comments)));
  doc_text::Sections sections;
  sections.body = rdocInline(tagged.body);
  for (const auto& [tag, text] : tagged.tags) {
    if (tag == "param" || tag == "yieldparam") {
      // @param name [Type] text, or @param [Type] name text
      auto [types, rest] = typesAndRest(text);
      auto [name, description] = doc_text::firstWordAndRest(rest);
      if (types.empty()) std::tie(types, description) = typesAndRest(description);
      sections.parameters.push_back({name, types, rdocInline(description), ""});
    } else if (tag == "option") {  // @option hash [Type] :key (default) text
      auto [hash, rest] = doc_text::firstWordAndRest(text);
      auto [types, keyAndText] = typesAndRest(rest);
      auto [key, description] = doc_text::firstWordAndRest(keyAndText);
      sections.parameters.push_back({hash + "[" + key + "]", types, rdocInline(description), ""});
    } else if (tag == "return" || tag == "yieldreturn") {
      auto [types, description] = typesAndRest(text);
      sections.returns.push_back({tag == "yieldreturn" ? "yields" : "", types, rdocInline(description), ""});
    } else if (tag == "raise") {
      auto [types, description] = typesAndRest(text);
      sections.raises.push_back({"", types, rdocInline(description), ""});
    } else if (tag == "example") {  // @example Title, then the example's lines
      auto newline = text.find('\n');
      std::string title = text.substr(0, newline);
      std::string code = newline == std::string::npos ? "" : doc_text::cleanIndentation(text.substr(newline + 1));
      sections.body += "\n\n" + (title.empty() ? std::string("**Example**") : "**Example: " + title + "**") +
                       "\n\n```ruby\n" + code + "\n```";
    } else if (tag == "private" || (tag == "api" && text.starts_with("private"))) {
      out.isPrivate = true;
    } else if (tag == "yield" || tag == "note" || tag == "deprecated" || tag == "since" || tag == "see" ||
               tag == "todo" || tag == "overload") {
      std::string label = tag == "see" ? "See also" : tag;
      label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
      sections.notes.emplace_back(label, rdocInline(text));
    }
  }
  out.rendered.markdown = doc_text::toMarkdown(sections);
  while (!out.rendered.markdown.empty() && out.rendered.markdown.back() == '\n') out.rendered.markdown.pop_back();
  out.rendered.summary = doc_text::firstSentence(sections.body);
  return out;
}

}  // namespace docs_generation
