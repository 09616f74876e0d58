#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "docs/ydoc/any.hpp"
#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc {

class YType;

// Type refs of ContentType (yjs structs/ContentType.js).
enum class TypeRef : uint8_t {
  Array = 0,
  Map = 1,
  Text = 2,
  XmlElement = 3,
  XmlFragment = 4,
  XmlHook = 5,
  XmlText = 6,
};

struct ContentDeleted {
  uint64_t len = 0;
};
// Values are kept as their JSON text ("undefined" allowed), exactly as encoded.
struct ContentJson {
  std::vector<std::string> values;
};
struct ContentBinary {
  Bytes data;
};
// UTF-16 code units, because clocks count them (JS string semantics).
struct ContentString {
  std::u16string str;
};
struct ContentEmbed {
  std::string json;
};
struct ContentFormat {
  std::string key;
  std::string json;  // "null" ends a format run
  // JS object identity of the value (not encoded): local edits that copy a
  // value from another format item share its identity, as yjs' === sees it.
  uintptr_t valueId = 0;
};
struct ContentType {
  TypeRef ref = TypeRef::Array;
  std::string name;       // nodeName for XmlElement, hook name for XmlHook
  YType* type = nullptr;  // set once integrated into a Doc (owned by the Doc)
};
struct ContentAny {
  std::vector<Any> values;
};
struct ContentDoc {
  std::string guid;
  Any opts;
};

using Content = std::variant<ContentDeleted, ContentJson, ContentBinary, ContentString, ContentEmbed, ContentFormat,
                             ContentType, ContentAny, ContentDoc>;

// The content ref written in the low 5 bits of a struct's info byte.
uint8_t contentRef(const Content& c);
// Length in clock units.
uint64_t contentLength(const Content& c);
// Countable content contributes to a type's length (Deleted and Format do not).
bool contentCountable(const Content& c);
// Keeps the first `offset` units in `c` and returns the rest (yjs Content.splice).
Content spliceContent(Content& c, uint64_t offset);
// Appends `right` to `left` if both are of a mergeable kind (yjs Content.mergeWith).
bool mergeContent(Content& left, Content& right);

Content readContent(Decoder& dec, uint8_t ref);
// Writes the content skipping its first `offset` units.
void writeContent(Encoder& enc, const Content& c, uint64_t offset);

}  // namespace docs::ydoc
