#pragma once
// Where a user starts: the commands and modules a package declares in its packaging
// and build metadata (package.json `bin`, `main`, `module`, `exports`; pyproject
// `[project.scripts]` and setup.cfg `console_scripts`; Cargo `[[bin]]` and src/main.rs;
// CMake `add_executable`; Go `package main`), resolved to files of the tree.

#include <set>
#include <string>
#include <vector>

namespace docs_generation {

// Candidate paths (relative to the repository root, not yet checked against the tree)
// that one build file declares as entry points. Python scripts are given as module paths
// ("pkg/cli.py"); the caller also tries them under src/.
std::vector<std::string> declaredEntryPoints(const std::string& buildPath, const std::string& text);

// True when a Go source declares `package main` (a command).
bool isGoMainPackage(const std::string& text);

}  // namespace docs_generation
