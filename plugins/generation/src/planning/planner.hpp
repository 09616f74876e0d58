#pragma once
// Topics from the code graph: the library's files are grouped by the folders under the
// source root, large groups are split into subtopics by sub-folder and, where a folder
// is still large and flat, by groups of files that import each other; topics are
// ordered by how much the rest of the library depends on them. Examples, tooling and
// tests follow as one topic each, tests last; generated and vendored code gets none. A repository can steer it with
// .docs/wiki.json:
//   {"notes": "...", "pages": [{"title": "...", "description": "...", "files": ["src/net/**"]}]}

#include <map>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/concepts.hpp"
#include "planning/guides.hpp"

namespace docs_generation {

struct Topic {
  std::string key;  // "topic:net" or "topic:net/http"
  std::string title;
  std::string folder;              // "" for the top-level files
  std::string description;         // from wiki.json, a folder README or the main file's comment
  std::vector<std::string> files;  // code files of this topic (not of its subtopics)
  std::vector<Topic> subtopics;
  double importance = 0;
  // "library" for the code's own topics; "example", "tooling" or "test" for the topics
  // that gather those files after the library (tests last).
  std::string role = "library";
};

struct Plan {
  std::string sourceRoot;     // where the code lives ("", "src", "lib/foo")
  std::string notes;          // from .docs/wiki.json
  std::vector<Topic> topics;  // reading order: library topics (most depended-on first), then examples, tooling, tests
  std::vector<std::string> filePages;  // files that get their own page, in topic order
  // topic key -> topic keys it depends on, with the number of imports between them
  std::map<std::string, std::map<std::string, int>> topicGraph;
  std::map<std::string, std::string> topicOfFile;  // file -> topic or subtopic key
  std::vector<Concept> concepts;                   // the library's core types and functions, most used first
  std::vector<Guide> guides;                       // the repository's own docs, in reading order
  std::string readme;                              // the root README ("" when none)
  std::vector<std::string> gettingStarted;         // its sections a newcomer starts with (install, usage, ...)
};

struct PlanOptions {
  std::size_t subtopicThreshold = 12;  // files in a topic before sub-folders, then import groups, become subtopics
  std::size_t maxFilePages = 2000;
  std::string wikiJson;    // contents of .docs/wiki.json, if any
  std::string sourceRoot;  // where the files are on disk, for the concepts ("": none)
};

Plan planTopics(const Analysis& analysis, const PlanOptions& options);

// Files that are code (not documentation or build files) with content worth a page.
bool isCodeFile(const FileAnalysis& file);
// Code of the library itself (not tests, examples, tooling or generated code).
bool isLibraryCode(const FileAnalysis& file);

}  // namespace docs_generation
