#pragma once
// What generation learned about a project's code, for plugins that work with code
// without parsing it again (the rag plugin's index). Implemented by the generation
// plugin; it publishes docs::kAnalysisChanged (docs/topics.hpp) after each run that changed it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

// The topic is docs::kAnalysisChanged (docs/topics.hpp, payload docs::AnalysisChanged);
// the name stays for code that subscribes by string.
[[deprecated("use docs::kAnalysisChanged from docs/topics.hpp")]] inline constexpr const char* kAnalysisChangedEvent =
    "analysis.changed";

struct CodeSymbol {
  std::string name;
  std::string kind;   // function, class, method, struct, ...
  std::string scope;  // enclosing class or namespace
  std::string signature;
  std::string doc;  // first paragraph of its doc comment or docstring
  int line = 0;     // 1-based, inclusive
  int end = 0;      // 0 when unknown
};

struct CodeFile {
  std::string path;  // relative to the source root, '/' separated
  std::string language;
  std::uint64_t lines = 0;
  std::string summary;  // the file's leading comment
  std::vector<CodeSymbol> symbols;
  std::int64_t pageId = 0;  // the file's documentation page (a guide's own page); 0: none
  // What the file is for a reader: library, test, example, guide (the repository's own
  // Markdown and reStructuredText), build, tooling or generated (vendored code too).
  std::string role = "library";
};

struct CodeAnalysis {
  std::int64_t projectId = 0;
  std::string revision;  // the commit, or a stamp of the analysis run for uploads
  std::vector<CodeFile> files;
};

class Analysis {
 public:
  static constexpr const char* kServiceId = "docs.analysis/1";
  virtual ~Analysis();

  // The latest analysis of a project, or nullopt before the first one finished.
  virtual std::optional<CodeAnalysis> load(std::int64_t projectId) = 0;
  // A source file of that analysis, at most maxBytes; nullopt when the path is not one of
  // its files (never a path outside the project's sources).
  virtual std::optional<std::string> readSource(std::int64_t projectId, std::string_view path,
                                                std::size_t maxBytes) = 0;
  // A web address of lines `from`..`to` of a file (the repository's blob URL at the
  // analysed commit), or "" when the project has no web address.
  virtual std::string sourceUrl(std::int64_t projectId, std::string_view path, int from, int to) = 0;
};

}  // namespace docs
