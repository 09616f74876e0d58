#pragma once
// What a file is for a reader: the library itself, its tests, examples, the repository's
// own guides, build and packaging files, tooling and CI, or generated and vendored code.
// Decided from the path, the name and (for generated code) the first lines, with each
// language's conventions (Go `_test.go` and `testdata/`, Python `tests/`, `test_*.py`
// and `conftest.py`, JavaScript `__tests__/` and `*.spec.*`, `examples/`, `docs/`,
// `bench*/`, ...). Every later step reads it: what a topic covers, what an API table
// lists, what the overview calls an entry point.

#include <string>
#include <string_view>

namespace docs_generation {

inline constexpr const char* kRoleLibrary = "library";
inline constexpr const char* kRoleTest = "test";
inline constexpr const char* kRoleExample = "example";
inline constexpr const char* kRoleGuide = "guide";
inline constexpr const char* kRoleBuild = "build";
inline constexpr const char* kRoleTooling = "tooling";
inline constexpr const char* kRoleGenerated = "generated";

struct FileFacts {
  std::string_view path;       // relative, '/'-separated
  std::string_view language;   // the inventory's language ("" when not code)
  bool documentation = false;  // README, Markdown, reStructuredText
  bool build = false;          // a build or packaging file the analysis reads
  std::string_view head;       // the file's first lines (a "generated" marker is looked for there)
};

// One of the kRole* names.
std::string fileRole(const FileFacts& facts);

// True for code a reader of the library's API should see (the library role).
inline bool isLibraryRole(std::string_view role) { return role == kRoleLibrary; }

}  // namespace docs_generation
