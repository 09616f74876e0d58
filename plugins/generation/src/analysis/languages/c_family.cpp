// C, C++ and Objective-C: `#include <a/b.h>`, `#include "x.h"`, `#import`; a quoted
// include is looked for beside the including file first.
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> include(std::string_view line) {  // #include <a/b.h>
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("#") && c.spaces() && (c.literal("include") || c.literal("import")) && c.spaces() && c.oneOf("<\"") &&
      c.take(noneOf(">\""), name) && c.oneOf(">\""))
    return name;
  return std::nullopt;
}

}  // namespace

const LanguageRules& cFamilyRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"c", "c++", "objective-c"};
    r.imports = {include};
    r.includesFromOwnFolder = true;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
