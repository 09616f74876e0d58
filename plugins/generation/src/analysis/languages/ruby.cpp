// Ruby: `require 'x'`, `require_relative 'y'` (beside this file); # comments.
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> requireCall(std::string_view line) {  // require_relative 'x'
  Cursor c(line);
  std::string name;
  c.spaces();
  if (!c.literal("require")) return std::nullopt;
  c.literal("_relative");
  c.spaces();
  c.literal("(");
  c.spaces();
  if (quotedName(c, name)) return name;
  return std::nullopt;
}

std::string normalise(std::string value, std::string_view line) {
  if (line.find("require_relative") != std::string_view::npos && value.rfind('.', 0) != 0) return "./" + value;
  return value;
}

}  // namespace

const LanguageRules& rubyRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"ruby"};
    r.imports = {requireCall};
    r.comments = CommentStyle::Hash;
    r.normalise = normalise;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
