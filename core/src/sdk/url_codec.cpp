#include "url_codec.hpp"

#include <docs/codec/codec.hpp>

namespace docs {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::vector<std::pair<std::string, std::string>> parseQueryString(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    auto key = codec::percentDecode(pair.substr(0, eq), codec::PercentStyle::Form);
    auto value = codec::percentDecode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1),
                                      codec::PercentStyle::Form);
    if (key && value) out.emplace_back(std::move(*key), std::move(*value));
  }
  return out;
}

}  // namespace docs
