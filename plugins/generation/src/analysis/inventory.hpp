#pragma once
// What is in a source tree and worth documenting: files with their language, size and
// line count, after ignore rules (.gitignore, vendored and generated folders, binaries,
// minified files (by their longest line), size caps). Symbolic links are never followed.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace docs_generation {

struct SourceFile {
  std::string path;      // relative, '/'-separated
  std::string language;  // "python", "c++", ... ("" for unknown text)
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  bool documentation = false;  // README, docs/*.md
  bool build = false;          // CMakeLists.txt, package.json, ...
};

struct InventoryLimits {
  std::uint64_t maxFiles = 20000;
  std::uint64_t maxFileBytes = 1 << 20;  // larger files are listed as skipped
  std::size_t maxLineBytes = 5000;       // a file with a longer line is taken for minified or generated
  int maxDepth = 32;
  // Called every 256 entries; may throw to stop the walk (a deleted project, a deadline).
  std::function<void()> checkpoint;
};

struct Inventory {
  std::vector<SourceFile> files;     // sorted by path
  std::vector<std::string> skipped;  // "path: reason"
  bool truncated = false;            // maxFiles reached
};

Inventory takeInventory(const std::string& root, const InventoryLimits& limits);

// The language of a path by file name and extension ("" when unknown or not code).
std::string languageOf(const std::string& path);
// The registered code-block language for a language name (spec section 9's list).
std::string codeBlockLanguage(const std::string& language);

// A small .gitignore matcher: patterns with *, ?, **, a leading / (anchored), a trailing
// / (folders only) and ! (negation), evaluated in order. Every path is matched against
// every rule, so a repository's rules are capped: at most kMaxRules in all, patterns of
// at most kMaxPatternBytes; the rest are not read (and counted in dropped()).
class IgnoreRules {
 public:
  static constexpr std::size_t kMaxRules = 2000;
  static constexpr std::size_t kMaxPatternBytes = 256;
  void add(const std::string& baseDir, const std::string& fileText);
  bool ignored(const std::string& path, bool isDirectory) const;
  std::size_t dropped() const { return dropped_; }

 private:
  std::size_t dropped_ = 0;
  struct Rule {
    std::string base;
    std::string pattern;
    bool negate = false;
    bool directoryOnly = false;
    bool anchored = false;
  };
  std::vector<Rule> rules_;
};

bool globMatch(const std::string& pattern, const std::string& text);

}  // namespace docs_generation
