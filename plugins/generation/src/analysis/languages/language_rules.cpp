#include "analysis/languages/language_rules.hpp"

#include <algorithm>
#include <map>

namespace docs_generation {

const LanguageRules* rulesFor(const std::string& language) {
  static const std::map<std::string, const LanguageRules*> byName = [] {
    std::map<std::string, const LanguageRules*> out;
    for (const LanguageRules* rules :
         {&pythonRules(), &javascriptRules(), &componentRules(), &cFamilyRules(), &jvmRules(), &goRules(), &rustRules(),
          &rubyRules(), &phpRules(), &csharpRules(), &scriptingRules(), &queryRules()})
      for (const auto& name : rules->names) out.emplace(name, rules);
    return out;
  }();
  auto found = byName.find(language);
  return found == byName.end() ? nullptr : found->second;
}

}  // namespace docs_generation
