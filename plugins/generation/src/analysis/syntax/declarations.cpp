#include "analysis/syntax/declarations.hpp"

#include <utility>

namespace docs_generation {

std::string oneLineHead(std::string_view text) {
  constexpr std::size_t kMaxHead = 400;  // a longer head is generated code
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '(' || out.back() == '<')) continue;
    if ((c == ')' || c == '>' || c == ',') && !out.empty() && out.back() == ' ' &&
        !(c == '>' && out.size() > 1 && out[out.size() - 2] == '-'))
      out.pop_back();
    if (c == ')' && !out.empty() && out.back() == ',') out.pop_back();  // a trailing comma
    out += c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';' || out.back() == '{' || out.back() == '='))
    out.pop_back();
  if (out.size() > kMaxHead) out = out.substr(0, kMaxHead) + "...";
  return out;
}

void attachDoc(Symbol& symbol, doc_text::RenderedDoc doc) {
  symbol.doc = std::move(doc.markdown);
  symbol.summary = std::move(doc.summary);
  symbol.markdownDoc = !symbol.doc.empty();
}

bool hasDeclarationReader(const std::string& language) {
  return language == "python" || language == "rust" || language == "javascript" || language == "typescript" ||
         language == "java" || language == "kotlin" || language == "go" || language == "c" || language == "c++" ||
         language == "csharp" || language == "php" || language == "ruby";
}

std::optional<ParsedFile> readDeclarations(const std::string& language, const std::string& path,
                                           const std::string& text) {
  if (language == "python") return readPythonDeclarations(path, text);
  if (language == "rust") return readRustDeclarations(path, text);
  if (language == "javascript" || language == "typescript") return readScriptDeclarations(language, path, text);
  if (language == "go") return readGoDeclarations(path, text);
  if (language == "java") return readJavaDeclarations(path, text);
  if (language == "kotlin") return readKotlinDeclarations(path, text);
  if (language == "c" || language == "c++") return readCFamilyDeclarations(language, path, text);
  if (language == "csharp") return readCsharpDeclarations(path, text);
  if (language == "php") return readPhpDeclarations(path, text);
  if (language == "ruby") return readRubyDeclarations(path, text);
  return std::nullopt;
}

}  // namespace docs_generation
