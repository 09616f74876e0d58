// JavaScript and TypeScript: `import x from './x'`, `import './y.css'`, `require('z')`;
// Vue and Svelte components import the same way in their script blocks.
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

// `word` where it starts a word anywhere in the line, followed by what `rest` reads.
template <typename Rest>
std::optional<std::string> anywhere(std::string_view line, std::string_view word, Rest rest) {
  for (auto at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    if (at > 0 && isWordChar(line[at - 1])) continue;
    Cursor c(line, at + word.size());
    std::string name;
    if (rest(c, name)) return name;
  }
  return std::nullopt;
}

std::optional<std::string> fromClause(std::string_view line) {  // import x from './x'
  return anywhere(line, "from", [](Cursor& c, std::string& name) { return c.spaces(true) && quotedName(c, name); });
}

std::optional<std::string> bareImport(std::string_view line) {  // import './styles.css'
  Cursor c(line);
  std::string name;
  c.spaces();
  if (c.literal("import") && c.spaces(true) && quotedName(c, name)) return name;
  return std::nullopt;
}

std::optional<std::string> requireCall(std::string_view line) {  // require('x')
  return anywhere(line, "require", [](Cursor& c, std::string& name) {
    return c.spaces() && c.literal("(") && c.spaces() && quotedName(c, name) && c.spaces() && c.literal(")");
  });
}

}  // namespace

const LanguageRules& javascriptRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"javascript", "typescript"};
    r.imports = {fromClause, bareImport, requireCall};
    return r;
  }();
  return rules;
}

const LanguageRules& componentRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"vue", "svelte"};
    r.imports = {fromClause, bareImport};
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
