// Java, Kotlin, Scala and Groovy: `import a.b.C`, `import static a.B.c`; dots for folders
// (a member's import drops its last segments when they name no file).
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> importStatement(std::string_view line) {  // import static a.B.c
  Cursor c(line);
  std::string name;
  c.spaces();
  if (!c.literal("import") || !c.spaces(true)) return std::nullopt;
  Cursor afterStatic = c;
  if (afterStatic.literal("static") && afterStatic.spaces(true) && afterStatic.take(wordOr("."), name)) return name;
  if (c.take(wordOr("."), name)) return name;
  return std::nullopt;
}

}  // namespace

const LanguageRules& jvmRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"java", "kotlin", "scala", "groovy"};
    r.imports = {importStatement};
    r.dottedModules = true;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
