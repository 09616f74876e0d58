#pragma once
// A guide's autodoc directives (Sphinx `.. autofunction:: pkg.mod.f`, MyST
// ```{autoclass} pkg.C```, mkdocstrings `::: pkg.mod`) replaced by the generated entry of
// the symbol they name, as the site would render it there: its head as code, its whole
// doc, and a link to its file's page. The converters leave an API marker line
// (myst_markdown.hpp) where each directive stood.

#include <string>
#include <string_view>

#include "analysis/analysis.hpp"

namespace docs_generation {

// The declaration a dotted name means ("httpx.Client.send", "pkg.mod", "Client"): its
// file and symbol, or {file, nullptr} for a module, or {nullptr, nullptr}.
struct NamedDeclaration {
  const FileAnalysis* file = nullptr;
  const Symbol* symbol = nullptr;
};
NamedDeclaration findDeclaration(const Analysis& analysis, std::string_view dottedName);

// `markdown` with each API marker line replaced by the entry of the symbol it names (the
// name as code when nothing matches). Links to files are root-relative ("/pkg/mod.py"),
// which the guide writer resolves to the file's page.
std::string withApiEntries(const std::string& markdown, const Analysis& analysis);

}  // namespace docs_generation
