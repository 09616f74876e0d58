#pragma once
// Builders of the editor's nodes (core/ydoc/schema.json) as ProseMirror JSON, and the
// phrase filler, shared by the page writers.

#include <map>
#include <string>
#include <vector>

#include <docs/ydoc/any.hpp>

namespace docs_generation {

// "{name} is ..." with each {key} replaced by its value.
std::string fill(std::string text, const std::map<std::string, std::string>& values);

docs::ydoc::Json textNode(const std::string& text, docs::ydoc::Json marks = nullptr);
docs::ydoc::Json codeText(const std::string& text);
// A link (with the code mark when `code`); plain text when `href` is "".
docs::ydoc::Json linkText(const std::string& text, const std::string& href, bool code = false);
// Inline text where `backticked` spans become inline code.
docs::ydoc::Json inlineWithCode(const std::string& text);
docs::ydoc::Json paragraph(docs::ydoc::Json inlines);
docs::ydoc::Json paragraphText(const std::string& text);
docs::ydoc::Json heading(int level, const std::string& text);
docs::ydoc::Json cell(docs::ydoc::Json inlines, bool header);
docs::ydoc::Json table(const std::vector<std::string>& headers, const std::vector<std::vector<docs::ydoc::Json>>& rows);
docs::ydoc::Json codeBlock(const std::string& language, const std::string& code, const std::string& gitUrl = "");
docs::ydoc::Json alert(const std::string& type, const std::string& text);
// A bullet list, one item per inline content.
docs::ydoc::Json bulletList(const std::vector<docs::ydoc::Json>& items);
docs::ydoc::Json doc(docs::ydoc::Json blocks);

}  // namespace docs_generation
