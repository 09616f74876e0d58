#pragma once

#include <string>

#include "docs/ydoc/any.hpp"
#include "docs/ydoc/doc.hpp"

namespace docs::ydoc {

// Maximum element nesting accepted when building a document from JSON.
inline constexpr int kMaxNodeDepth = 256;

// The document held in XmlFragment `fragment`, shaped like Tiptap's
// editor.getJSON(): every node of the schema carries all its attrs (defaults
// filled in), marks carry attrs only when their type has some.
Json toProseMirrorJson(const Doc& doc, const std::string& fragment = "default");

// Fills schema defaults and drops unknown attrs, giving the same shape as above.
Json normalizeProseMirrorJson(const Json& node);

// Replaces the content of `fragment` with `pm` (a "doc" node) in one local
// transaction, creating the items y-prosemirror's updateYFragment would create.
void applyProseMirrorJson(Doc& doc, const Json& pm, const std::string& fragment = "default");

// Appends the blocks of `pm` (a "doc" node) after the fragment's last block, in
// one local transaction under the document's client id (server-side append).
void appendProseMirrorJson(Doc& doc, const Json& pm, const std::string& fragment = "default");

// A fresh document holding `pm`, encoded as a v1 update.
Bytes proseMirrorJsonToUpdate(const Json& pm, uint64_t clientId, const std::string& fragment = "default");

// Renderers over ProseMirror JSON (use toProseMirrorJson first).
std::string toMarkdown(const Json& pm);
std::string toHtml(const Json& pm);
std::string toPlainText(const Json& pm);

}  // namespace docs::ydoc
