#pragma once
// Git bombs for the checkout limits, built with git's plumbing: one blob, one tree that
// names it `width` times, and `levels` trees above it that each name the tree below
// `width` times. A few KB of objects become width^(levels + 1) file paths on checkout.

#include <cstddef>
#include <string>

namespace docs::test {

struct GitBomb {
  int width = 10;
  int levels = 4;             // 10 wide, 4 levels: 100,000 files in 111,110 files and folders
  std::size_t blobBytes = 0;  // 0: "x\n"; else this many zero bytes (compress to almost nothing)
};

// Commits the bomb on refs/heads/main of the repository whose git directory is `gitDir`
// (a bare repository, or a clone's .git), after the branch's current commit if it has
// one; returns the new commit's hash.
std::string commitGitBomb(const std::string& gitDir, const GitBomb& bomb);

}  // namespace docs::test
