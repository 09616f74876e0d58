#pragma once
// Percent-decoding for paths and query strings.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docs {

// Decodes %XX (and '+' as space when plusAsSpace); nullopt on a malformed escape.
std::optional<std::string> percentDecode(std::string_view text, bool plusAsSpace);
// ASCII case-insensitive comparison (header names, tokens).
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// "a=1&b=x%20y" -> {{"a","1"},{"b","x y"}}; malformed pairs are skipped.
std::vector<std::pair<std::string, std::string>> parseQueryString(std::string_view query);

}  // namespace docs
