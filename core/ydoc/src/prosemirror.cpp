#include "docs/ydoc/prosemirror.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "docs/ydoc/error.hpp"
#include "docs/ydoc/schema.hpp"
#include "docs/ydoc/utf.hpp"
#include "docs/ydoc/xml.hpp"

namespace docs::ydoc {
namespace {

std::string markTypeOf(const std::string& key) {
  // overlapping marks are stored as "name--hash"
  const auto pos = key.find("--");
  return pos == std::string::npos ? key : key.substr(0, pos);
}

Json schemaAttrs(const std::vector<AttrSpec>& specs, const Json& given) {
  Json attrs = Json::object();
  for (const auto& spec : specs) {
    if (given.is_object() && given.contains(spec.name)) {
      attrs[spec.name] = given[spec.name];
    } else {
      attrs[spec.name] = spec.defaultValue;
    }
  }
  return attrs;
}

Json markJson(const std::string& key, const Json& value) {
  const EditorSchema& schema = EditorSchema::instance();
  Json mark = Json::object();
  const std::string type = markTypeOf(key);
  mark["type"] = type;
  if (const MarkSpec* spec = schema.mark(type)) {
    if (!spec->attrs.empty()) mark["attrs"] = schemaAttrs(spec->attrs, value);
  } else if (value.is_object() && !value.empty()) {
    mark["attrs"] = value;
  }
  return mark;
}

Json nodeJson(const std::string& type, const Json& yAttrs) {
  Json node = Json::object();
  node["type"] = type;
  if (const NodeSpec* spec = EditorSchema::instance().node(type)) {
    if (!spec->attrs.empty()) node["attrs"] = schemaAttrs(spec->attrs, yAttrs);
  } else if (yAttrs.is_object() && !yAttrs.empty()) {
    node["attrs"] = yAttrs;
  }
  return node;
}

void appendChildren(const YType& type, Json& content, int depth);

void appendNode(const YType& child, Json& content, int depth) {
  if (depth > kMaxTypeDepth + 1) throw ConversionError("document nested too deeply");
  if (child.ref == TypeRef::XmlText || child.ref == TypeRef::Text) {
    for (const DeltaOp& op : textDelta(child)) {
      if (!op.isText()) continue;
      Json text = Json::object();
      text["type"] = "text";
      if (!op.attributes.empty()) {
        Json marks = Json::array();
        for (const auto& [key, value] : op.attributes) marks.push_back(markJson(key, value));
        text["marks"] = std::move(marks);
      }
      text["text"] = utf16ToUtf8(op.text);
      content.push_back(std::move(text));
    }
    return;
  }
  if (child.ref != TypeRef::XmlElement) return;
  Json yAttrs = Json::object();
  for (const auto& [key, value] : typeAttributes(child)) yAttrs[key] = value;
  Json node = nodeJson(child.name, yAttrs);
  Json inner = Json::array();
  appendChildren(child, inner, depth + 1);
  if (!inner.empty()) node["content"] = std::move(inner);
  content.push_back(std::move(node));
}

void appendChildren(const YType& type, Json& content, int depth) {
  for (const YType* child : xmlChildren(type)) appendNode(*child, content, depth);
}

// ---- ProseMirror JSON -> Y ----------------------------------------------------

int markRank(const std::string& type) {
  const auto& marks = EditorSchema::instance().marks();
  for (size_t i = 0; i < marks.size(); ++i) {
    if (marks[i].name == type) return static_cast<int>(i);
  }
  return static_cast<int>(marks.size());
}

Attrs textAttributes(const Json& textNode) {
  Attrs attrs;
  if (!textNode.contains("marks")) return attrs;
  const Json& marks = textNode["marks"];
  if (!marks.is_array()) throw ConversionError("marks must be an array");
  std::vector<const Json*> sorted;
  for (const auto& m : marks) {
    if (!m.is_object() || !m.contains("type") || !m["type"].is_string()) throw ConversionError("invalid mark");
    sorted.push_back(&m);
  }
  // ProseMirror keeps marks ordered by their rank in the schema
  std::stable_sort(sorted.begin(), sorted.end(), [](const Json* a, const Json* b) {
    return markRank((*a)["type"].get<std::string>()) < markRank((*b)["type"].get<std::string>());
  });
  for (const Json* m : sorted) {
    const std::string type = (*m)["type"].get<std::string>();
    const Json given = m->contains("attrs") ? (*m)["attrs"] : Json::object();
    Json value = Json::object();
    if (const MarkSpec* spec = EditorSchema::instance().mark(type)) {
      value = schemaAttrs(spec->attrs, given);
    } else if (given.is_object()) {
      value = given;
    }
    attrs.emplace_back(type, std::move(value));
  }
  return attrs;
}

void checkNode(const Json& node) {
  if (!node.is_object() || !node.contains("type") || !node["type"].is_string()) {
    throw ConversionError("every ProseMirror node needs a string \"type\"");
  }
}

bool isTextNode(const Json& node) { return node["type"] == "text"; }

void writeChildren(Doc& doc, Transaction& tr, YType& parent, const Json& node, int depth, Item* left = nullptr);

void writeElement(Doc& doc, Transaction& tr, YType& parent, Item*& left, const Json& node, int depth) {
  if (depth > kMaxNodeDepth) throw ConversionError("ProseMirror document nested too deeply");
  const std::string type = node["type"].get<std::string>();
  Item* item = doc.insertAfter(tr, parent, left, ContentType{TypeRef::XmlElement, type, nullptr});
  left = item;
  YType* element = std::get<ContentType>(item->content).type;
  // YXmlFragment._integrate inserts prelim children first, then YXmlElement sets attrs
  writeChildren(doc, tr, *element, node, depth + 1);
  Json attrs = node.contains("attrs") && node["attrs"].is_object() ? node["attrs"] : Json::object();
  if (const NodeSpec* spec = EditorSchema::instance().node(type)) attrs = schemaAttrs(spec->attrs, attrs);
  for (auto it = attrs.begin(); it != attrs.end(); ++it) {
    if (it.value().is_null() || it.key() == "ychange") continue;
    setAttribute(doc, tr, *element, it.key(), jsonToAny(it.value()));
  }
}

// Writes node.content as children of `parent`, after `left` (nullptr: at the start).
void writeChildren(Doc& doc, Transaction& tr, YType& parent, const Json& node, int depth, Item* left) {
  if (!node.contains("content")) return;
  const Json& content = node["content"];
  if (!content.is_array()) throw ConversionError("content must be an array");
  for (size_t i = 0; i < content.size();) {
    checkNode(content[i]);
    if (!isTextNode(content[i])) {
      writeElement(doc, tr, parent, left, content[i], depth);
      ++i;
      continue;
    }
    // a run of adjacent text nodes becomes one XmlText
    std::vector<TextRun> runs;
    for (; i < content.size(); ++i) {
      checkNode(content[i]);
      if (!isTextNode(content[i])) break;
      const Json& text = content[i];
      if (!text.contains("text") || !text["text"].is_string()) throw ConversionError("text node without text");
      TextRun run{utf8ToUtf16(text["text"].get<std::string>()), textAttributes(text)};
      // ProseMirror joins adjacent text nodes with the same marks
      if (!runs.empty() && runs.back().attributes == run.attributes) {
        runs.back().text += run.text;
      } else {
        runs.push_back(std::move(run));
      }
    }
    Item* item = doc.insertAfter(tr, parent, left, ContentType{TypeRef::XmlText, {}, nullptr});
    left = item;
    insertText(doc, tr, *std::get<ContentType>(item->content).type, 0, runs);
  }
}

}  // namespace

Json toProseMirrorJson(const Doc& doc, const std::string& fragment) {
  Json out = Json::object();
  out["type"] = "doc";
  Json content = Json::array();
  if (const YType* root = doc.findRoot(fragment)) appendChildren(*root, content, 1);
  out["content"] = std::move(content);
  return out;
}

Json normalizeProseMirrorJson(const Json& node) {
  checkNode(node);
  const std::string type = node["type"].get<std::string>();
  if (type == "text") {
    Json text = Json::object();
    text["type"] = "text";
    const Attrs marks = textAttributes(node);
    if (!marks.empty()) {
      Json arr = Json::array();
      for (const auto& [key, value] : marks) arr.push_back(markJson(key, value));
      text["marks"] = std::move(arr);
    }
    text["text"] = node.value("text", std::string());
    return text;
  }
  Json out = type == "doc" ? Json{{"type", "doc"}} : nodeJson(type, node.value("attrs", Json::object()));
  Json content = Json::array();
  if (node.contains("content") && node["content"].is_array()) {
    for (const auto& c : node["content"]) {
      Json child = normalizeProseMirrorJson(c);
      if (!content.empty() && child["type"] == "text" && content.back()["type"] == "text" &&
          child.value("marks", Json::array()) == content.back().value("marks", Json::array())) {
        content.back()["text"] = content.back()["text"].get<std::string>() + child["text"].get<std::string>();
        continue;
      }
      content.push_back(std::move(child));
    }
  }
  if (!content.empty() || type == "doc") out["content"] = std::move(content);
  return out;
}

void applyProseMirrorJson(Doc& doc, const Json& pm, const std::string& fragment) {
  checkNode(pm);
  doc.transact([&](Transaction& tr) {
    YType& root = doc.root(fragment);
    if (root.length > 0) doc.deleteRange(tr, root, 0, root.length);
    writeChildren(doc, tr, root, pm, 1);
  });
}

void appendProseMirrorJson(Doc& doc, const Json& pm, const std::string& fragment) {
  checkNode(pm);
  doc.transact([&](Transaction& tr) {
    YType& root = doc.root(fragment);
    // like fragment.insert(fragment.length, ...): after the last visible child
    Item* left = nullptr;
    uint64_t index = root.length;
    for (Item* n = root.start; n != nullptr && index > 0; n = n->right) {
      if (!n->deleted && n->countable()) {
        left = n;
        index -= std::min(index, n->length);
      }
    }
    writeChildren(doc, tr, root, pm, 1, left);
  });
}

Bytes proseMirrorJsonToUpdate(const Json& pm, uint64_t clientId, const std::string& fragment) {
  Doc doc(clientId);
  applyProseMirrorJson(doc, pm, fragment);
  return doc.encodeStateAsUpdate();
}

}  // namespace docs::ydoc
