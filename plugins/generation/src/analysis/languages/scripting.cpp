// Languages the analysis reads comments of but no imports: shells, Perl, R, Elixir,
// PowerShell and configuration languages with # comments; SQL, Lua and Haskell with --.
#include "analysis/languages/language_rules.hpp"

namespace docs_generation {

const LanguageRules& scriptingRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"bash",  "shell", "perl",       "r",      "yaml",       "toml",
               "cmake", "make",  "dockerfile", "elixir", "powershell", "nginx"};
    r.comments = CommentStyle::Hash;
    return r;
  }();
  return rules;
}

const LanguageRules& queryRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"sql", "lua", "haskell"};
    r.comments = CommentStyle::Dash;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
