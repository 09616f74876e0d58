#pragma once
// Groups of files that belong together by their imports: label propagation over the
// import graph restricted to one folder's files. The planner splits a large flat folder
// into subtopics with these.

#include <string>
#include <vector>

#include "analysis.hpp"

namespace docs::generation {

// Groups of `files` (each of at least two files linked by imports among them), largest
// first; files with no import to or from another of `files` are in no group.
std::vector<std::vector<std::string>> importCommunities(const Analysis& analysis, const std::vector<std::string>& files);

// A short name for a group: the common prefix of its file names ("http_client",
// "http_server" -> "http") when it has three letters or more, else the stem of the file
// the others import most.
std::string communityName(const Analysis& analysis, const std::vector<std::string>& files);

}  // namespace docs::generation
