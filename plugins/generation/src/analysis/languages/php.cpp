// PHP: `use App\Models\User` (namespaces with backslashes for folders).
#include <algorithm>

#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> useStatement(std::string_view line) {  // use App\Models\User
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("use") && c.spaces(true) && c.take(wordOr("\\"), name)) return name;
  return std::nullopt;
}

std::string normalise(std::string value, std::string_view) {
  std::replace(value.begin(), value.end(), '\\', '/');
  return value;
}

}  // namespace

const LanguageRules& phpRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"php"};
    r.imports = {useStatement};
    r.normalise = normalise;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
