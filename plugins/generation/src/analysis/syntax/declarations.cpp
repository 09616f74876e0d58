#include "analysis/syntax/declarations.hpp"

namespace docs_generation {

bool hasDeclarationReader(const std::string& language) {
  return language == "python" || language == "rust" || language == "javascript" || language == "typescript" ||
         language == "java" || language == "kotlin" || language == "go";
}

std::optional<ParsedFile> readDeclarations(const std::string& language, const std::string& path,
                                           const std::string& text) {
  if (language == "python") return readPythonDeclarations(path, text);
  if (language == "rust") return readRustDeclarations(path, text);
  if (language == "javascript" || language == "typescript") return readScriptDeclarations(language, path, text);
  if (language == "go") return readGoDeclarations(path, text);
  if (language == "java") return readJavaDeclarations(path, text);
  if (language == "kotlin") return readKotlinDeclarations(path, text);
  return std::nullopt;
}

}  // namespace docs_generation
