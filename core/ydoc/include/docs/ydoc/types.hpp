#pragma once

#include <string>

#include "docs/ydoc/any.hpp"
#include "docs/ydoc/doc.hpp"

namespace docs::ydoc {

// JSON views of Map, Array and Text types (yjs toJSON()). Nested shared types
// are converted by their own type ref; XML types become their text content.
Json mapToJson(const YType& map);
Json arrayToJson(const YType& array);
std::string textToString(const YType& text);

// Sets map[key] = value / inserts values into an array (local edits, as
// YMap.set and YArray.insert with plain JSON values).
void mapSet(Doc& doc, Transaction& tr, YType& map, const std::string& key, const Json& value);
void arrayInsert(Doc& doc, Transaction& tr, YType& array, uint64_t index, const std::vector<Json>& values);

}  // namespace docs::ydoc
