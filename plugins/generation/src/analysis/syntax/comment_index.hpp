#pragma once
// The comments of a parsed file, found by position: the run of comment lines right above
// a declaration is its doc, wherever the grammar put those comments in the tree (Ruby's
// leading comments sit in the enclosing body, beside the class they document).

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/syntax/syntax_tree.hpp"

namespace docs_generation::syntax {

class CommentIndex {
 public:
  // Every node of type `commentType` under `root` (at most a bounded number of nodes walked).
  CommentIndex(const Node& root, std::string_view commentType);

  // The comments ending on the line right above `line`, and those above them line after
  // line, first to last; a comment after code on its line (`x = 1 # note`) ends the run.
  std::vector<Node> runAbove(int line) const;

  // The comment starting on `line` after code (`int x; // the x`), or null.
  Node trailing(int line) const;

 private:
  bool startsItsLine(const Node& comment) const;
  std::vector<Node> comments_;  // in source order
  std::string_view source_;
};

}  // namespace docs_generation::syntax
