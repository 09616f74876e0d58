#pragma once
// The file role as a prior on ranking. A question in plain words ("How do I stream a
// response?") is best answered by the repository's guides and its documented public
// API; a test or an example that merely uses the same names is not an answer unless the
// question asks about tests or examples. The fused score of each candidate is
// multiplied by a factor for its role, chosen by what the question asks. Identifier
// words and code-like text keep their text ranking (only tests or examples the query
// names lead).

#include <string_view>

namespace docs_rag {

struct QueryIntent {
  bool natural = false;        // a question in words: how do I, how to, what is, ...?
  bool aboutTests = false;     // names tests, specs, benchmarks, fixtures
  bool aboutExamples = false;  // names examples, demos, samples
  bool aboutChanges = false;   // names changes, releases, versions, upgrades, migrations
};

QueryIntent intentOf(std::string_view query);

// True when a symbol is public by its language's convention: not `_private` or
// `#private`, and in Go an exported (capitalised) name. Scopes are not judged.
bool isPublicName(std::string_view name, std::string_view language);

// The factor for a chunk: kind code|docs; role as the analysis names it (library, test,
// example, guide, build, tooling, generated; a file's page has its file's, other pages ""); api: documented
// public library code.
// `changeLog`: the chunk is a changelog's or release notes' (isChangeLog): last for a
// question in words, unless it asks about changes.
double rolePrior(const QueryIntent& intent, std::string_view kind, std::string_view role, bool api,
                 bool changeLog = false);

// True for a chunk of a changelog, release notes or a news file, by its file's name or its
// title ("CHANGELOG.md", "Changes › 2.0.0", "Release notes", "v7.18.5 (2025-01-02)").
bool isChangeLog(std::string_view title, std::string_view path);

}  // namespace docs_rag
