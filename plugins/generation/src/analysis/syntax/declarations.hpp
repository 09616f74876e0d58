#pragma once
// A file's declarations read with its language's parser (tree-sitter), as its own
// documentation tool reads them: whole extents, the declaration head with parameter
// types, defaults and return types, the whole doc comment rendered from its dialect, and
// visibility by the language's rules. Languages without a reader keep Universal Ctags.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

struct ParsedFile {
  std::vector<Symbol> symbols;  // in source order, members after their type
  std::string doc;              // the module's own doc (docstring, //!, package doc) as Markdown
  // A file the module's doc is read from, relative to this file's folder (Rust's
  // `#![doc = include_str!("../README.md")]`); the caller reads it, within the tree.
  std::string docFile{};
};

// A declaration's head on one line, as the languages' tools print it: whitespace runs as
// one space, none just inside `(` and `<` or before `)`, `>` and `,` (`->` kept), no
// trailing comma in a list, no `;`, `{` or `=` at its end; at most 400 bytes. Shared by the
// readers of Rust, JavaScript/TypeScript, Java, Kotlin and C/C++ (Python's and Go's brackets and
// literals differ).
std::string oneLineHead(std::string_view text);

// The signature of a Python package's re-export whose module a wildcard import hides
// (`from ._client import *` and `__all__` naming `Client`); the analysis replaces it with
// `from ._client import Client` once it finds the module.
inline constexpr std::string_view kWildcardReexport = "from . import *";

// A declaration's doc as its dialect rendered it: the Markdown and the summary sentence.
void attachDoc(Symbol& symbol, doc_text::RenderedDoc doc);

// True when `language` is read by a parser here rather than by ctags.
bool hasDeclarationReader(const std::string& language);

// nullopt: no reader, or the parse failed or ran out of time (the caller keeps ctags').
std::optional<ParsedFile> readDeclarations(const std::string& language, const std::string& path,
                                           const std::string& text);

// Each language's reader (one file each).
std::optional<ParsedFile> readPythonDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readRustDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readGoDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readJavaDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readKotlinDeclarations(const std::string& path, const std::string& text);
// C and C++ (`language`: "c" or "c++").
std::optional<ParsedFile> readCFamilyDeclarations(const std::string& language, const std::string& path,
                                                  const std::string& text);
std::optional<ParsedFile> readCsharpDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readPhpDeclarations(const std::string& path, const std::string& text);
std::optional<ParsedFile> readRubyDeclarations(const std::string& path, const std::string& text);
// JavaScript and TypeScript (`language`: "javascript" or "typescript").
std::optional<ParsedFile> readScriptDeclarations(const std::string& language, const std::string& path,
                                                 const std::string& text);

}  // namespace docs_generation
