#pragma once
// Cutting code and pages into the pieces the index ranks and answers quote. Code chunks
// follow the symbols generation found (a function, a class's head, a method); lines no
// symbol covers fall into windows. Page chunks are the sections under each heading.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <docs/services/analysis.hpp>

namespace docs::rag {

struct Chunk {
  std::string kind;         // code | docs
  std::string path;         // code: the file
  int startLine = 0;        // code: 1-based, inclusive
  int endLine = 0;
  std::string symbol;       // code: "Scope.name" or ""
  std::string symbolKind;   // function, class, ...
  std::string language;
  std::int64_t pageId = 0;  // docs: the page; code: the file's page (0: none)
  std::string title;        // docs: "Page › Heading"; code: the signature line
  std::string doc;          // code: the symbol's doc comment (above the definition in C++ and JS)
  std::string content;
};

struct ChunkLimits {
  int maxLines = 100;             // longer symbols are cut into pieces of this many lines
  int windowLines = 60;           // uncovered lines
  std::size_t maxBytes = 6000;    // per chunk
};

std::vector<Chunk> codeChunks(const CodeFile& file, std::string_view text, const ChunkLimits& limits = {});

// markdown: the page as the export writes it.
std::vector<Chunk> pageChunks(std::int64_t pageId, std::string_view pageName, std::string_view markdown,
                              const ChunkLimits& limits = {});

}  // namespace docs::rag
