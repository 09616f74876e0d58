// C#: `using System.Text;` (namespaces with dots for folders).
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> usingDirective(std::string_view line) {  // using System.Text;
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("using") && c.spaces(true) && c.take(wordOr("."), name) && c.spaces() && c.literal(";")) return name;
  return std::nullopt;
}

}  // namespace

const LanguageRules& csharpRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"csharp"};
    r.imports = {usingDirective};
    r.dottedModules = true;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
