#include "docs/ydoc/types.hpp"

#include "docs/ydoc/utf.hpp"
#include "docs/ydoc/xml.hpp"

namespace docs::ydoc {
namespace {

Json typeToJson(const YType& type) {
  switch (type.ref) {
    case TypeRef::Map: return mapToJson(type);
    case TypeRef::Array: return arrayToJson(type);
    default: return textToString(type);
  }
}

Json parseJson(const std::string& text) {
  if (text == "undefined") return nullptr;
  try {
    return Json::parse(text);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// Appends the values an item holds (yjs Content.getContent()).
void appendContent(const Item& item, Json& out) {
  if (const auto* a = std::get_if<ContentAny>(&item.content)) {
    for (const auto& v : a->values) out.push_back(anyToJson(v));
  } else if (const auto* j = std::get_if<ContentJson>(&item.content)) {
    for (const auto& v : j->values) out.push_back(parseJson(v));
  } else if (const auto* s = std::get_if<ContentString>(&item.content)) {
    for (const char16_t c : s->str) out.push_back(utf16ToUtf8(std::u16string(1, c)));
  } else if (const auto* e = std::get_if<ContentEmbed>(&item.content)) {
    out.push_back(parseJson(e->json));
  } else if (const auto* t = std::get_if<ContentType>(&item.content); t && t->type) {
    out.push_back(typeToJson(*t->type));
  } else if (const auto* b = std::get_if<ContentBinary>(&item.content)) {
    out.push_back(anyToJson(Any(b->data)));
  }
}

}  // namespace

Json mapToJson(const YType& map) {
  Json out = Json::object();
  for (const auto& key : map.mapOrder) {
    const Item* item = map.mapGet(key);
    if (item == nullptr) continue;
    Json values = Json::array();
    appendContent(*item, values);
    out[key] = values.empty() ? Json(nullptr) : values.back();
  }
  return out;
}

Json arrayToJson(const YType& array) {
  Json out = Json::array();
  for (const Item* n = array.start; n != nullptr; n = n->right) {
    if (!n->deleted && n->countable()) appendContent(*n, out);
  }
  return out;
}

std::string textToString(const YType& text) { return utf16ToUtf8(textString(text)); }

void mapSet(Doc& doc, Transaction& tr, YType& map, const std::string& key, const Json& value) {
  doc.setMapValue(tr, map, key, ContentAny{{jsonToAny(value)}});
}

void arrayInsert(Doc& doc, Transaction& tr, YType& array, uint64_t index, const std::vector<Json>& values) {
  if (values.empty()) return;
  ContentAny content;
  for (const auto& v : values) content.values.push_back(jsonToAny(v));
  doc.insertContent(tr, array, index, std::move(content));
}

}  // namespace docs::ydoc
