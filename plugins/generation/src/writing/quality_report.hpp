#pragma once
// The quality figures of a generated page tree (`docsd generate --report`): how much of
// the public API is documented in the code, whether every identifier the pages name in
// code style exists in the code, whether every source link points at lines that exist,
// and whether every diagram is in the checked mermaid subset.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/analysis.hpp"
#include "writing/offline_writer.hpp"

namespace docs_generation {

struct QualityReport {
  std::uint64_t publicSymbols = 0;
  std::uint64_t documentedSymbols = 0;
  std::uint64_t identifiersNamed = 0;
  std::uint64_t identifiersFound = 0;   // symbols, files, or words of the code's comments and build files
  std::uint64_t identifiersInCode = 0;  // strict: symbols, files and folders only
  std::uint64_t sourceLinks = 0;
  std::uint64_t sourceLinksResolved = 0;
  std::uint64_t diagrams = 0;
  std::uint64_t diagramsValid = 0;
  std::vector<std::string> problems;   // the first few failures, for people
  std::vector<std::string> notInCode;  // the first few names found only in comments or build files

  nlohmann::json toJson() const;
};

// `sourceRoot` is where the paths of "path#La-Lb" links are read; a repository's
// "https://host/owner/repo/blob/<commit>/path#La-Lb" is read as "path#La-Lb".
QualityReport measureQuality(const Analysis& analysis, const std::vector<PageDraft>& pages,
                             const std::string& sourceRoot);

}  // namespace docs_generation
