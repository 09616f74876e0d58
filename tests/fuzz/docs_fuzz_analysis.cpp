// The text-only analysis of one file: the first byte picks the language (or build file),
// the second where symbols stand, the rest is the file. Any input must come back (no
// crash, no sanitizer report, no libFuzzer timeout: the reads are linear).
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/analysis.hpp"
#include "analysis/bounded_json.hpp"
#include "analysis/inventory.hpp"

namespace {

using namespace docs_generation;

const char* const kLanguages[] = {
    "python", "javascript", "typescript", "vue", "svelte", "c",       "c++",      "objective-c", "java",
    "kotlin", "scala",      "groovy",     "go",  "rust",   "ruby",    "php",      "csharp",      "swift",
    "bash",   "shell",      "perl",       "r",   "yaml",   "toml",    "cmake",    "make",        "dockerfile",
    "elixir", "powershell", "nginx",      "sql", "lua",    "haskell", "markdown", "json",        "text",
    ""};
const char* const kBuildFiles[] = {"package.json", "CMakeLists.txt", "pyproject.toml", "setup.py", "setup.cfg",
                                   "go.mod",       "Cargo.toml",     "composer.json",  "Makefile"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  constexpr std::size_t kLanguageCount = sizeof(kLanguages) / sizeof(kLanguages[0]);
  constexpr std::size_t kBuildCount = sizeof(kBuildFiles) / sizeof(kBuildFiles[0]);
  std::string text(reinterpret_cast<const char*>(data) + 2, size - 2);

  FileAnalysis file;
  file.language = kLanguages[data[0] % kLanguageCount];
  file.path = "src/main." + file.language;
  // Symbols on every few lines from the second byte, and one past the end.
  int step = 1 + data[1] % 16;
  for (int line = 1; line < 64; line += step) file.symbols.push_back({"f", "function", "", "()", line, line + 1, ""});
  file.symbols.push_back({"main", "function", "", "()", 1 << 20, 1 << 20, ""});
  describeFile(file, text);

  readBuildText(kBuildFiles[data[0] % kBuildCount], text);
  (void)parseBoundedJson(text);
  (void)firstSentences(text, 1 + data[1]);

  // Ignore rules: the first line is a pattern, the rest of the text the paths.
  auto newline = text.find('\n');
  std::string pattern = text.substr(0, newline);
  std::string rest = newline == std::string::npos ? std::string() : text.substr(newline + 1);
  IgnoreRules rules;
  rules.add("", pattern);
  (void)rules.ignored(rest, data[1] & 1);
  (void)globMatch(pattern, rest);
  return 0;
}
