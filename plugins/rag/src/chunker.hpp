#pragma once
// Cutting code and pages into the pieces the index ranks and answers quote. Code chunks
// follow the symbols generation found (a function, a class's head, a method); lines no
// symbol covers fall into windows. The repository's Markdown and reStructuredText files
// (guides, READMEs) and pages are cut into the sections under each heading.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <docs/services/analysis.hpp>

namespace docs_rag {

struct Chunk {
  std::string kind;   // code | docs
  std::string path;   // code: the file
  int startLine = 0;  // code: 1-based, inclusive
  int endLine = 0;
  std::string symbol;      // code: "Scope.name" or ""
  std::string symbolKind;  // function, class, ...
  std::string language;
  std::int64_t pageId = 0;  // docs: the page; code: the file's page (0: none)
  std::string title;        // docs: "Page › Heading"; code: the signature line
  std::string doc;          // code: the symbol's doc comment (above the definition in C++ and JS)
  std::string content;
  std::string role;  // the file's role (library, test, example, guide, ...); a file page: its file's; else ""
  bool api = false;  // a documented public definition of library code
  // PostgreSQL text-search configuration of its words: english, or a project's page
  // language (russian, german; textSearchLanguage in searcher.hpp).
  std::string textLanguage = "english";
};

struct ChunkLimits {
  int maxLines = 100;           // longer symbols are cut into pieces of this many lines
  int windowLines = 60;         // uncovered lines
  std::size_t maxBytes = 6000;  // per chunk
};

std::vector<Chunk> codeChunks(const docs::CodeFile& file, std::string_view text, const ChunkLimits& limits = {});

// Markdown and reStructuredText: indexed as documents (guideChunks), not as code.
bool isDocumentFile(const docs::CodeFile& file);

// A Markdown or reStructuredText file as docs chunks, one per section (long ones in
// pieces), each with the file's path and lines and titled "Document › Heading › Subheading"
// (the document's title: front matter `title:`, else its first top-level heading, else
// the file name). Front matter is left out; headings inside code fences are not headings.
std::vector<Chunk> guideChunks(const docs::CodeFile& file, std::string_view text, const ChunkLimits& limits = {});

// markdown: the page as the export writes it.
std::vector<Chunk> pageChunks(std::int64_t pageId, std::string_view pageName, std::string_view markdown,
                              const ChunkLimits& limits = {});

}  // namespace docs_rag
