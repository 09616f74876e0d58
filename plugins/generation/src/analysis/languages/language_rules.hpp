#pragma once
// How each language (or family of languages) writes what the analysis reads without
// ctags: its import statements, its line comments, and how an import names a file. One
// file per family in this folder; rulesFor() finds a language's rules by its name.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs_generation {

// One pattern of an import statement, read from the start of a (cut) line: the name it
// imports, or nullopt. Each is a straight scan of the line.
using ImportPattern = std::optional<std::string> (*)(std::string_view line);

enum class CommentStyle {
  Slash,  // // and /* */ (C, Go, Java, JavaScript, Rust, ...)
  Hash,   // # (Python, Ruby, shells, YAML, CMake, ...)
  Dash,   // -- (SQL, Lua, Haskell)
};

struct LanguageRules {
  std::vector<std::string> names;      // the inventory's language names it covers
  std::vector<ImportPattern> imports;  // tried on every line, in order
  CommentStyle comments = CommentStyle::Slash;
  // Imports name modules with dots for folders (a.b.C -> a/b/C): Python, the JVM, C#.
  bool dottedModules = false;
  // Includes name a path from the including file's folder first (C and C++).
  bool includesFromOwnFolder = false;
  // Python's `from .x import y`: leading dots climb folders.
  bool relativeDots = false;
  // Python: a module's and a definition's doc is the string literal that opens its body.
  bool docstrings = false;
  // Go: imports stand alone or inside `import ( ... )`; other lines are not imports.
  bool importBlocks = false;
  // Turns a pattern's match into the import as the resolver reads it ("./parser" for
  // Rust's `mod parser;`), given the whole line. nullptr: as matched.
  std::string (*normalise)(std::string value, std::string_view line) = nullptr;
};

// The rules of `language` (an inventory language name), nullptr when it has none.
const LanguageRules* rulesFor(const std::string& language);

// The rules of each family, defined in this folder's files.
const LanguageRules& pythonRules();
const LanguageRules& javascriptRules();
const LanguageRules& componentRules();  // Vue and Svelte single-file components
const LanguageRules& cFamilyRules();
const LanguageRules& jvmRules();
const LanguageRules& goRules();
const LanguageRules& rustRules();
const LanguageRules& rubyRules();
const LanguageRules& phpRules();
const LanguageRules& csharpRules();
const LanguageRules& scriptingRules();  // hash-comment languages without imports (shells, YAML, CMake, ...)
const LanguageRules& queryRules();      // dash-comment languages (SQL, Lua, Haskell)

}  // namespace docs_generation
