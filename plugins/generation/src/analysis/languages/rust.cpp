// Rust: `use crate::net::Socket` (paths with ::) and `mod parser;` (a file beside this one).
#include "analysis/languages/language_rules.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

std::optional<std::string> useDeclaration(std::string_view line) {  // pub use crate::net::Socket
  Cursor c(line);
  std::string name;
  c.spaces();
  Cursor afterPub = c;
  if (afterPub.literal("pub") && afterPub.spaces(true)) c = afterPub;
  if (c.literal("use") && c.spaces(true) && c.take(wordOr(":"), name)) return name;
  return std::nullopt;
}

std::optional<std::string> modDeclaration(std::string_view line) {  // mod parser;
  Cursor c(line);
  std::string name;
  c.spaces();
  Cursor afterPub = c;
  if (afterPub.literal("pub") && afterPub.spaces(true)) c = afterPub;
  if (c.literal("mod") && c.spaces(true) && c.take(wordOr(""), name) && c.spaces() && c.literal(";")) return name;
  return std::nullopt;
}

// `mod parser;` names ./parser.rs (or ./parser/mod.rs).
std::string normalise(std::string value, std::string_view line) {
  if (line.find("mod ") != std::string_view::npos && line.find("use ") == std::string_view::npos) return "./" + value;
  return value;
}

}  // namespace

const LanguageRules& rustRules() {
  static const LanguageRules rules = [] {
    LanguageRules r;
    r.names = {"rust"};
    r.imports = {useDeclaration, modDeclaration};
    r.normalise = normalise;
    return r;
  }();
  return rules;
}

}  // namespace docs_generation
