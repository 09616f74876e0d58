#pragma once
// The few types and functions everything else in a library is built from, found with
// no model: the library's exported top-level symbols ranked by how many other files of
// the library, its examples and its guides name them. Each comes with where it is used
// and, when the examples or the README show it, a short usage excerpt.

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/analysis.hpp"

namespace docs_generation {

struct Concept {
  std::string name;
  std::string kind;
  std::string file;  // where it is defined
  int line = 0;
  int end = 0;
  std::string doc;
  std::vector<std::string> usedIn;  // files naming it, most telling first (examples, guides, library)
  int score = 0;
  std::string examplePath;  // where the usage excerpt comes from ("" when none)
  int exampleLine = 0;
  std::string example;               // a few lines that use it
  std::vector<std::string> related;  // other concepts named in its signature, doc or members
  // Typed relations (concept_relations.hpp): {"extends"|"embeds"|"holds"|"returns"|"created_by", name}.
  std::vector<std::pair<std::string, std::string>> relations;
};

// Every identifier-like word (3 to 64 characters) of a text, once.
std::unordered_set<std::string> identifierWords(const std::string& text);

// At most `max` concepts, most used first. Reads the files' text under `root` once.
std::vector<Concept> rankConcepts(const Analysis& analysis, const std::string& root, std::size_t max = 8);

}  // namespace docs_generation
