// The parsed languages' declaration readers and the doc dialects: the first byte picks
// the language, the rest is the file (and, for the dialects, a doc comment). Any input
// must come back: no crash, no sanitizer report, no libFuzzer timeout (a parse has its
// own time budget and bracket-depth bound).
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/doc_dialects/csharp_xml_doc.hpp"
#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/doc_dialects/doxygen.hpp"
#include "analysis/doc_dialects/go_doc.hpp"
#include "analysis/doc_dialects/javadoc.hpp"
#include "analysis/doc_dialects/jsdoc.hpp"
#include "analysis/doc_dialects/phpdoc.hpp"
#include "analysis/doc_dialects/python_docstring.hpp"
#include "analysis/doc_dialects/rustdoc.hpp"
#include "analysis/doc_dialects/yard.hpp"
#include "analysis/syntax/declarations.hpp"

namespace {

using namespace docs_generation;

struct Language {
  const char* name;
  const char* path;
};
const Language kLanguages[] = {{"python", "m.py"},         {"rust", "src/lib.rs"},  {"javascript", "index.js"},
                               {"typescript", "index.ts"}, {"typescript", "v.tsx"}, {"java", "A.java"},
                               {"kotlin", "A.kt"},         {"go", "pkg/a.go"},      {"c", "include/a.h"},
                               {"c++", "include/a.hpp"},   {"c++", "src/a.cpp"},    {"csharp", "src/A.cs"},
                               {"php", "src/A.php"},       {"ruby", "lib/a.rb"}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  constexpr std::size_t kCount = sizeof(kLanguages) / sizeof(kLanguages[0]);
  const Language& language = kLanguages[data[0] % kCount];
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (auto parsed = readDeclarations(language.name, language.path, text))
    for (const auto& symbol : parsed->symbols) (void)doc_text::firstSentence(symbol.doc);
  (void)pythonDocstringMarkdown(text);
  (void)rustdocMarkdown(text);
  (void)jsdocMarkdown("/**" + text + "*/");
  (void)javadocMarkdown("/**" + text + "*/");
  (void)kdocMarkdown("/**" + text + "*/");
  (void)goDocMarkdown(text);
  (void)renderDoxygen(doxygenCommentText("/**" + text + "*/"));
  (void)renderDoxygen(doxygenCommentText(text));
  (void)renderCsharpXmlDoc(text);
  (void)renderPhpDoc("/**" + text + "*/");
  (void)renderYard(text);
  (void)doc_text::firstSentence(text, 1 + data[0]);
  return 0;
}
