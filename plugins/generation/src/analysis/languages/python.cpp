// Python: `import a.b`, `from .models import User`; # comments; docstrings; dots for
// folders and, leading, for climbing them.
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> fromImport(std::string_view line) {  // from a.b import c
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("from") && c.spaces(true) && c.take(wordOr("."), name) && c.spaces(true) && c.literal("import") &&
      !isWordChar(c.peek()))
    return name;
  return std::nullopt;
}

std::optional<std::string> plainImport(std::string_view line) {  // import a.b
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("import") && c.spaces(true) && c.take(wordOr("."), name)) return name;
  return std::nullopt;
}

}  // namespace

const LanguageRules& pythonRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"python"};
    r.imports = {fromImport, plainImport};
    r.comments = CommentStyle::Hash;
    r.dottedModules = true;
    r.relativeDots = true;
    r.docstrings = true;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
