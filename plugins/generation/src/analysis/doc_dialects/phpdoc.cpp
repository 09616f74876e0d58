#include "analysis/doc_dialects/phpdoc.hpp"

#include "analysis/doc_dialects/doxygen.hpp"

namespace docs_generation {

namespace {

// {@see X} and {@link url text} as Markdown, {@inheritDoc} as a note that the parent's applies.
std::string inlineTags(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto open = text.find("{@", at);
    if (open == std::string_view::npos) break;
    auto close = text.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(at, open - at));
    auto [tag, rest] = doc_text::firstWordAndRest(text.substr(open + 2, close - open - 2));
    if (tag == "link") {
      auto [url, label] = doc_text::firstWordAndRest(rest);
      out += label.empty() ? url : "[" + label + "](" + url + ")";
    } else if (tag == "see") {
      auto [target, label] = doc_text::firstWordAndRest(rest);
      out += label.empty() ? "`" + target + "`" : label;
    } else if (tag == "inheritDoc" || tag == "inheritdoc") {
      out += "(As the parent's.)";
    } else {
      out += rest;
    }
    at = close + 1;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

}  // namespace

PhpDoc renderPhpDoc(std::string_view comment) {
  PhpDoc out;
  auto tagged = doc_text::splitBlockTags(doxygenCommentText(comment));
  doc_text::Sections sections;
  sections.body = inlineTags(tagged.body);
  for (const auto& [tag, text] : tagged.tags) {
    if (tag == "param") {  // @param Type $name description (the type may be missing)
      auto [first, rest] = doc_text::firstWordAndRest(text);
      doc_text::Field field;
      if (first.starts_with("$") || first.starts_with("...$") || first.starts_with("&$")) {
        field.name = first;
        field.description = inlineTags(rest);
      } else {
        auto [name, description] = doc_text::firstWordAndRest(rest);
        field.type = first;
        field.name = name;
        field.description = inlineTags(description);
      }
      sections.parameters.push_back(std::move(field));
    } else if (tag == "return" || tag == "returns") {
      auto [type, description] = doc_text::firstWordAndRest(text);
      sections.returns.push_back({"", type, inlineTags(description), ""});
    } else if (tag == "throws" || tag == "throw") {
      auto [type, description] = doc_text::firstWordAndRest(text);
      sections.raises.push_back({"", type, inlineTags(description), ""});
    } else if (tag == "var") {  // @var Type [$name] description: a property's type and doc
      auto [type, rest] = doc_text::firstWordAndRest(text);
      if (rest.starts_with("$")) rest = doc_text::firstWordAndRest(rest).second;
      if (sections.body.find_first_not_of(" \n") == std::string::npos) sections.body = inlineTags(rest);
      sections.notes.emplace_back("Type", "`" + type + "`");
    } else if (tag == "internal") {
      out.internal = true;
    } else if (tag == "deprecated" || tag == "since" || tag == "see" || tag == "link" || tag == "example" ||
               tag == "todo") {
      std::string label = tag == "see" ? "See also" : tag == "link" ? "Link" : tag;
      if (!label.empty()) label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
      sections.notes.emplace_back(label, inlineTags(text));
    }
  }
  out.rendered.markdown = doc_text::toMarkdown(sections);
  while (!out.rendered.markdown.empty() && out.rendered.markdown.back() == '\n') out.rendered.markdown.pop_back();
  out.rendered.summary = doc_text::firstSentence(sections.body);
  return out;
}

}  // namespace docs_generation
