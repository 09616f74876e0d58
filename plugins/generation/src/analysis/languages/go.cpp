// Go: `import h "net/http"` alone or the lines of an `import ( ... )` block; a package is
// its folder (see entry_points for `package main`).
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> importSpec(std::string_view line) {  // import h "net/http", or a line of an import block
  auto from = [&](Cursor c) -> std::optional<std::string> {
    std::string alias, name;
    if (c.peek() != '"' && !(c.take(wordOr(""), alias) && c.spaces(true))) return std::nullopt;
    if (!(c.literal("\"") && c.take(wordOr("./-"), name) && c.literal("\""))) return std::nullopt;
    c.spaces();
    if (!c.done()) return std::nullopt;
    return name;
  };
  Cursor c(line);
  c.spaces();
  Cursor afterImport = c;
  if (afterImport.literal("import") && afterImport.spaces(true))
    if (auto name = from(afterImport)) return name;
  return from(c);
}

}  // namespace

const LanguageRules& goRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"go"};
    r.imports = {importSpec};
    r.importBlocks = true;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
