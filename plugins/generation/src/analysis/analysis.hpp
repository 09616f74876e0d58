#pragma once
// What the code says about itself: symbols from Universal Ctags (name, kind, scope,
// signature, lines), imports resolved to files of the tree, doc comments and
// docstrings, the README, build files and entry points. Kept as JSON so later stages
// (and the rag plugin) read it without parsing the code again.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/inventory.hpp"

namespace docs_generation {

struct Symbol {
  std::string name;
  std::string kind;       // function, class, method, struct, ...
  std::string scope;      // enclosing class or namespace
  std::string signature;  // parsed languages: the whole declaration head ("def f(a: int = 1) -> bool");
                          // ctags: "(int a, int b)" when it knows it
  int line = 0;
  int end = 0;
  // Parsed languages (analysis/syntax): the whole doc comment rendered as Markdown from its
  // dialect (markdownDoc). Ctags languages: the comment's first paragraph, as written.
  std::string doc;
  // "public" or "private" by the language's own rules (parsed languages); "": not known,
  // the writer's name conventions decide.
  std::string visibility{};
  std::string summary{};  // the doc's first sentence by its dialect's rule, inline Markdown
  bool markdownDoc = false;
};

struct FileAnalysis {
  std::string path;
  std::string language;
  std::uint64_t lines = 0;
  std::uint64_t bytes = 0;
  std::string summary;  // the file's own leading comment or docstring, its first sentences
  std::vector<Symbol> symbols;
  std::vector<std::string> imports;    // as written
  std::vector<std::string> dependsOn;  // files of this tree it imports
  std::vector<std::string> usedBy;     // files of this tree importing it
  bool entryPoint = false;
  bool documentation = false;
  bool build = false;
  std::string role = "library";  // analysis/file_roles.hpp: library, test, example, guide, build, tooling, generated
  std::string doc{};             // parsed languages: the module's whole doc (docstring, //!, package doc) as Markdown
};

struct BuildFile {
  std::string path;
  std::string kind;  // "npm", "cmake", "python", "go", "cargo", ...
  std::string name;
  std::string description;
  std::vector<std::string> facts;  // "script test: vitest run", "target docsd (executable)"
};

struct Analysis {
  std::string name;    // project or folder name
  std::string readme;  // the README's opening, plain text
  std::vector<FileAnalysis> files;
  std::vector<BuildFile> builds;
  std::map<std::string, std::uint64_t> linesByLanguage;
  std::vector<std::string> skipped;
  bool truncated = false;

  const FileAnalysis* find(const std::string& path) const;
  std::string toJsonText() const;  // what fromJson reads back
  static Analysis fromJson(const nlohmann::json& json);
};

struct AnalysisOptions {
  std::string ctags = "ctags";  // Universal Ctags with +json
  int ctagsTimeoutSeconds = 300;
  // Incremental: files of `previous` not named in `changed` keep their symbols, docs and
  // imports without ctags or parsing; imports are resolved again across the whole tree.
  const struct Analysis* previous = nullptr;
  const std::set<std::string>* changed = nullptr;
  // For a progress display: ("symbols", code files done, code files) after each ctags
  // batch, then ("reading", files done, files) while every file is read.
  std::function<void(const std::string& step, std::size_t done, std::size_t total)> onStep;
};

// Universal Ctags could not run (missing, crashed, timed out): without it there are no
// symbols, so a caller must not take the analysis for a complete one.
struct CtagsFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// progress(done, total) after each batch of files. Throws CtagsFailed.
Analysis analyze(const std::string& root, const Inventory& inventory, const AnalysisOptions& options,
                 const std::function<void(std::size_t, std::size_t)>& progress = {});

// Comments and docstrings are looked for in the first this many bytes of a line, imports
// only in lines no longer: a longer line is data or generated code.
inline constexpr std::size_t kMaxAnalysedLineBytes = 4096;

// The text-only part of analysing one file (what ctags does not): its summary, the docs
// of `f.symbols` (by their lines), its imports and whether it is an entry point. Any
// text gives an answer in time linear in its size, with no recursion.
// `symbolsParsed`: the symbols came from a parser with their docs (analysis/syntax), so
// only the summary, imports and entry point are read here.
void describeFile(FileAnalysis& f, const std::string& text, bool symbolsParsed = false);
// A build file's kind, name, description and facts from its path and text.
BuildFile readBuildText(const std::string& path, const std::string& text);

// Replaces bytes that are not valid UTF-8 (and control characters but tab and line
// ends) so every string can go into JSON and Yjs.
std::string validUtf8(const std::string& text);

// Pieces exposed for tests.
std::vector<std::string> extractImports(const std::string& language, const std::string& text);
std::string leadingComment(const std::string& language, const std::string& text);
// The paragraphs of a comment before its first legal one (copyright, licence, SPDX,
// "generated"): a file's purpose often shares its comment with the licence.
std::string purposeBeforeLegalText(const std::string& text);
std::string firstSentences(const std::string& text, std::size_t maxChars);

}  // namespace docs_generation
