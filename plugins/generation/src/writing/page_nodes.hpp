#pragma once
// Builders of the editor's nodes (core/ydoc/schema.json) as ProseMirror JSON, and the
// phrase filler, shared by the page writers.

#include <map>
#include <string>
#include <vector>

#include <docs/ydoc/any.hpp>

namespace docs::generation {

// "{name} is ..." with each {key} replaced by its value.
std::string fill(std::string text, const std::map<std::string, std::string>& values);

ydoc::Json textNode(const std::string& text, ydoc::Json marks = nullptr);
ydoc::Json codeText(const std::string& text);
// A link (with the code mark when `code`); plain text when `href` is "".
ydoc::Json linkText(const std::string& text, const std::string& href, bool code = false);
// Inline text where `backticked` spans become inline code.
ydoc::Json inlineWithCode(const std::string& text);
ydoc::Json paragraph(ydoc::Json inlines);
ydoc::Json paragraphText(const std::string& text);
ydoc::Json heading(int level, const std::string& text);
ydoc::Json cell(ydoc::Json inlines, bool header);
ydoc::Json table(const std::vector<std::string>& headers, const std::vector<std::vector<ydoc::Json>>& rows);
ydoc::Json codeBlock(const std::string& language, const std::string& code, const std::string& gitUrl = "");
ydoc::Json alert(const std::string& type, const std::string& text);
// A bullet list, one item per inline content.
ydoc::Json bulletList(const std::vector<ydoc::Json>& items);
ydoc::Json doc(ydoc::Json blocks);

}  // namespace docs::generation
