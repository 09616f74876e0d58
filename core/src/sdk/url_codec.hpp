#pragma once
// Query strings and header-name comparison (percent-decoding itself is docs::codec's).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docs {

// ASCII case-insensitive comparison (header names, tokens).
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// "a=1&b=x%20y" -> {{"a","1"},{"b","x y"}}; malformed pairs are skipped.
std::vector<std::pair<std::string, std::string>> parseQueryString(std::string_view query);

}  // namespace docs
