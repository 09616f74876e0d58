#include "docs/ydoc/xml.hpp"

#include <nlohmann/json.hpp>

#include "docs/ydoc/error.hpp"
#include "docs/ydoc/utf.hpp"
#include "format_cleanup.hpp"

namespace docs::ydoc {
namespace {

Json parseJsonText(const std::string& text) {
  if (text == "undefined") return nullptr;
  try {
    return Json::parse(text);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The value an attribute item holds (getContent()[length - 1]).
Json itemValue(const Item& item) {
  if (const auto* a = std::get_if<ContentAny>(&item.content); a && !a->values.empty()) {
    return anyToJson(a->values.back());
  }
  if (const auto* j = std::get_if<ContentJson>(&item.content); j && !j->values.empty()) {
    return parseJsonText(j->values.back());
  }
  if (const auto* s = std::get_if<ContentString>(&item.content); s && !s->str.empty()) {
    return utf16ToUtf8(s->str.substr(s->str.size() - 1));
  }
  if (const auto* e = std::get_if<ContentEmbed>(&item.content)) return parseJsonText(e->json);
  return nullptr;
}

const Json* attrGet(const Attrs& attrs, const std::string& key) {
  for (const auto& [k, v] : attrs) {
    if (k == key) return &v;
  }
  return nullptr;
}

void attrSet(Attrs& attrs, const std::string& key, const Json& value) {
  for (auto& [k, v] : attrs) {
    if (k == key) {
      v = value;
      return;
    }
  }
  attrs.emplace_back(key, value);
}

void attrErase(Attrs& attrs, const std::string& key) {
  std::erase_if(attrs, [&](const auto& e) { return e.first == key; });
}

void updateAttributes(Attrs& attrs, const ContentFormat& f) {
  Json value = parseJsonText(f.json);
  if (value.is_null()) {
    attrErase(attrs, f.key);
  } else {
    attrSet(attrs, f.key, value);
  }
}

bool isPrimitive(const Json& j) { return !j.is_object() && !j.is_array(); }

// yjs equalAttrs: a === b, or flat equality of two objects. Nested objects only
// compare equal by identity in JS, which two parsed values never share.
bool equalAttrs(const Json& a, const Json& b) {
  if (isPrimitive(a) && isPrimitive(b)) return a == b;
  if (isPrimitive(a) || isPrimitive(b)) return false;
  if (a.is_array() != b.is_array() || a.size() != b.size()) return false;
  if (a.is_array()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!isPrimitive(a[i]) || a[i] != b[i]) return false;
    }
    return true;
  }
  for (auto it = a.begin(); it != a.end(); ++it) {
    auto other = b.find(it.key());
    if (other == b.end() || !isPrimitive(it.value()) || it.value() != *other) return false;
  }
  return true;
}

// yjs ItemTextListPosition.
struct TextPosition {
  Item* left = nullptr;
  Item* right = nullptr;
  uint64_t index = 0;
  Attrs current;
  detail::Attributes currentIds;  // the same attributes with JS identity semantics

  void update(const ContentFormat& f) {
    updateAttributes(current, f);
    currentIds.update(f);
  }

  void forward() {
    if (right == nullptr) throw YdocError("text position beyond the end");
    if (const auto* f = std::get_if<ContentFormat>(&right->content)) {
      if (!right->deleted) update(*f);
    } else if (!right->deleted) {
      index += right->length;
    }
    left = right;
    right = right->right;
  }
};

Content formatContent(const std::string& key, const Json& value, uintptr_t valueId = 0) {
  return ContentFormat{key, jsStringify(value), valueId};
}

// Negated attributes keep the identity of the value they were copied from.
struct Negated {
  Attrs values;
  std::vector<uintptr_t> ids;

  void set(const std::string& key, const Json& value, uintptr_t id) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i].first == key) {
        values[i].second = value;
        ids[i] = id;
        return;
      }
    }
    values.emplace_back(key, value);
    ids.push_back(id);
  }
  void erase(const std::string& key) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i].first == key) {
        values.erase(values.begin() + static_cast<ptrdiff_t>(i));
        ids.erase(ids.begin() + static_cast<ptrdiff_t>(i));
        return;
      }
    }
  }
  bool empty() const { return values.empty(); }
};

}  // namespace

std::vector<const YType*> xmlChildren(const YType& type) {
  std::vector<const YType*> out;
  for (const Item* n = type.start; n != nullptr; n = n->right) {
    if (n->deleted || !n->countable()) continue;
    if (const auto* ct = std::get_if<ContentType>(&n->content); ct && ct->type) out.push_back(ct->type);
  }
  return out;
}

Attrs typeAttributes(const YType& type) {
  Attrs out;
  for (const auto& key : type.mapOrder) {
    const Item* item = type.mapGet(key);
    if (item != nullptr) out.emplace_back(key, itemValue(*item));
  }
  return out;
}

std::vector<DeltaOp> textDelta(const YType& text) {
  std::vector<DeltaOp> ops;
  Attrs current;
  std::u16string str;
  const auto packStr = [&]() {
    if (!str.empty()) {
      DeltaOp op;
      op.text = std::move(str);
      op.attributes = current;
      ops.push_back(std::move(op));
      str.clear();
    }
  };
  for (const Item* n = text.start; n != nullptr; n = n->right) {
    if (n->deleted) continue;
    if (const auto* s = std::get_if<ContentString>(&n->content)) {
      str += s->str;
    } else if (const auto* ct = std::get_if<ContentType>(&n->content)) {
      packStr();
      DeltaOp op;
      op.embedType = ct->type;
      op.attributes = current;
      ops.push_back(std::move(op));
    } else if (const auto* e = std::get_if<ContentEmbed>(&n->content)) {
      packStr();
      DeltaOp op;
      op.embed = parseJsonText(e->json);
      op.attributes = current;
      ops.push_back(std::move(op));
    } else if (const auto* f = std::get_if<ContentFormat>(&n->content)) {
      packStr();
      updateAttributes(current, *f);
    }
  }
  packStr();
  return ops;
}

std::u16string textString(const YType& text) {
  std::u16string out;
  for (const Item* n = text.start; n != nullptr; n = n->right) {
    if (n->deleted) continue;
    if (const auto* s = std::get_if<ContentString>(&n->content)) out += s->str;
  }
  return out;
}

YType* insertElement(Doc& doc, Transaction& tr, YType& parent, uint64_t index, const std::string& name) {
  Item* item = doc.insertContent(tr, parent, index, ContentType{TypeRef::XmlElement, name, nullptr});
  return std::get<ContentType>(item->content).type;
}

YType* insertXmlText(Doc& doc, Transaction& tr, YType& parent, uint64_t index) {
  Item* item = doc.insertContent(tr, parent, index, ContentType{TypeRef::XmlText, {}, nullptr});
  return std::get<ContentType>(item->content).type;
}

void setAttribute(Doc& doc, Transaction& tr, YType& element, const std::string& key, const Any& value) {
  doc.setMapValue(tr, element, key, ContentAny{{value}});
}

void removeAttribute(Doc& doc, Transaction& tr, YType& element, const std::string& key) {
  auto it = element.map.find(key);
  if (it != element.map.end() && it->second != nullptr) doc.deleteItem(tr, it->second);
}

namespace {

// yjs minimizeAttributeChanges / insertAttributes / insertNegatedAttributes.
void minimizeAttributeChanges(TextPosition& pos, const Attrs& attributes) {
  while (pos.right != nullptr) {
    if (pos.right->deleted) {
      pos.forward();
      continue;
    }
    const auto* f = std::get_if<ContentFormat>(&pos.right->content);
    if (f == nullptr) break;
    const Json* want = attrGet(attributes, f->key);
    if (!equalAttrs(want ? *want : Json(nullptr), parseJsonText(f->json))) break;
    pos.forward();
  }
}

Negated insertAttributes(Doc& doc, Transaction& tr, YType& text, TextPosition& pos, const Attrs& attributes) {
  Negated negated;
  for (const auto& [key, value] : attributes) {
    const Json* cur = attrGet(pos.current, key);
    const Json currentValue = cur ? *cur : Json(nullptr);
    if (!equalAttrs(currentValue, value)) {
      negated.set(key, currentValue, pos.currentIds.get(key).identity);
      pos.right = doc.insertAfter(tr, text, pos.left, formatContent(key, value));
      pos.forward();
    }
  }
  return negated;
}

void insertNegatedAttributes(Doc& doc, Transaction& tr, YType& text, TextPosition& pos, Negated negated) {
  while (pos.right != nullptr) {
    if (!pos.right->deleted) {
      const auto* f = std::get_if<ContentFormat>(&pos.right->content);
      if (f == nullptr) break;
      const Json* neg = attrGet(negated.values, f->key);
      // JS: equalAttrs(undefined, value) is false unless the value is undefined
      if (neg == nullptr || !equalAttrs(*neg, parseJsonText(f->json))) break;
      negated.erase(f->key);
    }
    pos.forward();
  }
  for (size_t i = 0; i < negated.values.size(); ++i) {
    const auto& [key, value] = negated.values[i];
    pos.right = doc.insertAfter(tr, text, pos.left, formatContent(key, value, negated.ids[i]));
    pos.forward();
  }
}

// yjs findPosition/findNextPosition (no search markers).
TextPosition positionAt(Doc& doc, Transaction& tr, YType& text, uint64_t count) {
  TextPosition pos;
  pos.right = text.start;
  // Without formatting there are no attributes to collect, and a walk from the
  // start would pass the marker with count still positive: start there instead.
  if (!text.hasFormatting && text.marker != nullptr && text.markerIndex < count) {
    pos.left = text.marker->left;
    pos.right = text.marker;
    pos.index = text.markerIndex;
    count -= text.markerIndex;
  }
  while (pos.right != nullptr && count > 0) {
    Item* r = pos.right;
    if (const auto* f = std::get_if<ContentFormat>(&r->content)) {
      if (!r->deleted) pos.update(*f);
    } else if (!r->deleted) {
      if (count < r->length) doc.splitAt(tr, {r->id.client, r->id.clock + count});
      pos.index += r->length;
      count -= std::min(count, r->length);
    }
    pos.left = r;
    pos.right = r->right;
  }
  return pos;
}

// Remembers an item a little before `pos` with the visible length before it.
void setMarker(YType& text, const TextPosition& pos) {
  constexpr int kMarkerBacktrack = 32;
  Item* anchor = pos.left;
  if (anchor == nullptr) {
    text.marker = nullptr;
    return;
  }
  uint64_t index = pos.index;
  const auto visible = [](const Item* i) { return !i->deleted && i->countable() ? i->length : 0; };
  index -= std::min(index, visible(anchor));
  for (int steps = 0; steps < kMarkerBacktrack && anchor->left != nullptr; ++steps) {
    anchor = anchor->left;
    index -= std::min(index, visible(anchor));
  }
  text.marker = anchor;
  text.markerIndex = index;
}

}  // namespace

void insertText(Doc& doc, Transaction& tr, YType& text, uint64_t index, const std::vector<TextRun>& runs) {
  TextPosition pos = positionAt(doc, tr, text, index);
  for (const TextRun& run : runs) {
    if (run.text.empty()) continue;
    Attrs attributes = run.inherit ? pos.current : run.attributes;
    for (const auto& [key, value] : pos.current) {
      if (attrGet(attributes, key) == nullptr) attributes.emplace_back(key, nullptr);
    }
    minimizeAttributeChanges(pos, attributes);
    Negated negated = insertAttributes(doc, tr, text, pos, attributes);
    pos.right = doc.insertAfter(tr, text, pos.left, ContentString{run.text});
    pos.forward();
    insertNegatedAttributes(doc, tr, text, pos, std::move(negated));
  }
  setMarker(text, pos);
}

void formatText(Doc& doc, Transaction& tr, YType& text, uint64_t index, uint64_t length, const Attrs& attributes) {
  if (length == 0) return;
  TextPosition pos = positionAt(doc, tr, text, index);
  if (pos.right == nullptr) return;
  minimizeAttributeChanges(pos, attributes);
  Negated negated = insertAttributes(doc, tr, text, pos, attributes);
  // walk the formatted range: drop format items the new attributes replace
  while (pos.right != nullptr &&
         (length > 0 ||
          (!negated.empty() && (pos.right->deleted || std::holds_alternative<ContentFormat>(pos.right->content))))) {
    Item* r = pos.right;
    if (!r->deleted) {
      if (const auto* f = std::get_if<ContentFormat>(&r->content)) {
        const Json value = parseJsonText(f->json);
        if (const Json* attr = attrGet(attributes, f->key)) {
          if (equalAttrs(*attr, value)) {
            negated.erase(f->key);
          } else {
            if (length == 0) break;
            negated.set(f->key, value, detail::identityOf(*f));
          }
          doc.deleteItem(tr, r);
        } else {
          attrSet(pos.current, f->key, value);
          pos.currentIds.set(f->key, detail::AttrValue{f->json, detail::identityOf(*f)});
        }
      } else {
        if (length < r->length) doc.splitAt(tr, {r->id.client, r->id.clock + length});
        length -= std::min(length, r->length);
      }
    }
    pos.forward();
  }
  if (length > 0) {
    // like yjs (for Quill): formatting past the end appends newlines
    pos.right = doc.insertAfter(tr, text, pos.left, ContentString{std::u16string(length, u'\n')});
    pos.forward();
  }
  insertNegatedAttributes(doc, tr, text, pos, std::move(negated));
  setMarker(text, pos);
}

void deleteText(Doc& doc, Transaction& tr, YType& text, uint64_t index, uint64_t length) {
  if (length == 0) return;
  TextPosition pos = positionAt(doc, tr, text, index);
  const detail::Attributes startAttributes = pos.currentIds;
  Item* start = pos.right;
  while (length > 0 && pos.right != nullptr) {
    Item* r = pos.right;
    if (!r->deleted &&
        (std::holds_alternative<ContentString>(r->content) || std::holds_alternative<ContentType>(r->content) ||
         std::holds_alternative<ContentEmbed>(r->content))) {
      if (length < r->length) doc.splitAt(tr, {r->id.client, r->id.clock + length});
      length -= std::min(length, r->length);
      doc.deleteItem(tr, r);
    }
    pos.forward();
  }
  if (start != nullptr) detail::cleanupFormattingGap(doc, tr, start, pos.right, startAttributes, pos.currentIds);
  setMarker(text, pos);
}

}  // namespace docs::ydoc
