#pragma once
// JSON from a repository (package.json, .docs/wiki.json) or a model's answer, parsed
// only when its nesting stays within a small depth: nlohmann::json recurses per level
// when it builds, copies and destroys a value, so [[[...]]] half a million deep would
// overflow the stack and take the whole process down.

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace docs_generation {

inline constexpr std::size_t kMaxJsonDepth = 512;

// The deepest nesting of arrays and objects in `text` (strings skipped), counted in one
// pass; stops counting once past `limit` and returns limit + 1.
std::size_t jsonNestingDepth(std::string_view text, std::size_t limit = kMaxJsonDepth);

// The parsed value, or a discarded one (is_discarded()) when the text is not JSON or
// nests deeper than `maxDepth`. Never throws.
nlohmann::json parseBoundedJson(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);

}  // namespace docs_generation
