#pragma once
// Groups of files that belong together by their imports: communities (Louvain, by
// modularity) of the import graph restricted to one folder's files. The planner splits a
// large flat folder into subtopics with these.

#include <string>
#include <vector>

#include "analysis/analysis.hpp"

namespace docs_generation {

// Groups of `files` (each of at least two files linked by imports among them), largest
// first (then by first path); files with no import to or from another of `files` are in no group, and
// neither are hubs linked to more than a third of them (and more than four). None when
// the graph has no clear community structure (modularity under 0.3): one tangle.
std::vector<std::vector<std::string>> importCommunities(const Analysis& analysis,
                                                        const std::vector<std::string>& files);

// A short name for a group: the common prefix of its file names ("http_client",
// "http_server" -> "http") when it has three letters or more, else the stem of the file
// the others import most.
std::string communityName(const Analysis& analysis, const std::vector<std::string>& files);

}  // namespace docs_generation
