#pragma once

#include <string>
#include <utility>
#include <vector>

#include "docs/ydoc/any.hpp"
#include "docs/ydoc/doc.hpp"

namespace docs::ydoc {

using Attrs = std::vector<std::pair<std::string, Json>>;

// One op of YText.toDelta(): a string run or an embed, with its formatting.
struct DeltaOp {
  std::u16string text;
  const YType* embedType = nullptr;  // set for embedded shared types
  Json embed;                        // set for ContentEmbed
  Attrs attributes;
  bool isText() const { return embedType == nullptr && embed.is_null(); }
};

// ---- reading ----------------------------------------------------------------

// Visible child types of an XmlFragment/XmlElement, in document order.
std::vector<const YType*> xmlChildren(const YType& type);
// XmlElement.getAttributes(): visible map entries in JS Map key order.
Attrs typeAttributes(const YType& type);
// YText.toDelta() without snapshots.
std::vector<DeltaOp> textDelta(const YType& text);
// Plain string of a text type (YText.toString()).
std::u16string textString(const YType& text);

// ---- local edits (same items as the yjs calls named) ----------------------------

// parent.insert(index, [new Y.XmlElement(name)]) for an element with no prelim content.
YType* insertElement(Doc& doc, Transaction& tr, YType& parent, uint64_t index, const std::string& name);
// parent.insert(index, [new Y.XmlText()]).
YType* insertXmlText(Doc& doc, Transaction& tr, YType& parent, uint64_t index);
// element.setAttribute(key, value) / removeAttribute(key).
void setAttribute(Doc& doc, Transaction& tr, YType& element, const std::string& key, const Any& value);
void removeAttribute(Doc& doc, Transaction& tr, YType& element, const std::string& key);

struct TextRun {
  std::u16string text;
  Attrs attributes;      // format key -> value (JSON), e.g. {"bold", {}}
  bool inherit = false;  // text.insert(index, text) without attributes: take the formatting in place
};
// text.insert(index, run.text, run.attributes) for each run in order (yjs insertText).
void insertText(Doc& doc, Transaction& tr, YType& text, uint64_t index, const std::vector<TextRun>& runs);
// text.format(index, length, attributes) (yjs formatText).
void formatText(Doc& doc, Transaction& tr, YType& text, uint64_t index, uint64_t length, const Attrs& attributes);
// text.delete(index, length) (yjs deleteText, with format cleanup).
void deleteText(Doc& doc, Transaction& tr, YType& text, uint64_t index, uint64_t length);

}  // namespace docs::ydoc
