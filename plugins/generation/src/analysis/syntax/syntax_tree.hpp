#pragma once
// Code parsed with tree-sitter: a grammar per language (plugins/generation/grammars,
// compiled from the pinned npm packages), a parse bounded in time and size, and a small
// read-only view of the nodes. The declaration readers (declarations.hpp) walk it.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct TSLanguage;
struct TSTree;

namespace docs_generation::syntax {

// The grammar for one of the analysis' language names ("python", "rust", "typescript",
// ...; `path` tells TSX from TypeScript), or null when there is none.
const TSLanguage* grammarFor(std::string_view language, std::string_view path = {});

// A node of a parsed tree; a null node answers empty for everything. Cheap to copy; valid
// while its Tree lives.
class Node {
 public:
  Node() = default;
  bool null() const { return null_; }
  explicit operator bool() const { return !null_; }
  std::string_view type() const;
  bool named() const;
  bool hasError() const;
  // Children with names in the grammar (not punctuation), in order.
  std::vector<Node> namedChildren() const;
  std::vector<Node> children() const;  // punctuation and keywords too
  Node field(const char* name) const;  // the child in that field, or null
  std::vector<Node> fieldAll(const char* name) const;
  Node parent() const;
  Node previousNamedSibling() const;
  Node nextNamedSibling() const;
  std::uint32_t startByte() const;
  std::uint32_t endByte() const;
  int startLine() const;          // 1-based
  int endLine() const;            // 1-based, the line of the last byte
  std::string_view text() const;  // the source it covers

 private:
  friend class Tree;
  Node(const void* raw, std::string_view source);
  alignas(8) unsigned char raw_[32] = {};  // TSNode, kept opaque here
  std::string_view source_;
  bool null_ = true;
};

// A parsed file. Owns its copy of the source, so nodes' text stays valid.
class Tree {
 public:
  Tree(Tree&&) noexcept;
  Tree& operator=(Tree&&) noexcept;
  ~Tree();
  Node root() const;
  const std::string& source() const { return source_; }

 private:
  friend std::optional<Tree> parse(const TSLanguage*, std::string, std::chrono::milliseconds);
  Tree(TSTree* tree, std::string source);
  TSTree* tree_ = nullptr;
  std::string source_;
};

// Brackets nested deeper than this are not parsed (see parse()).
inline constexpr int kMaxBracketDepth = 4096;

// Parses `source`; nullopt when there is no grammar, it took longer than `budget`, or its
// brackets nest deeper than kMaxBracketDepth (hostile files; the caller falls back).
// Nesting deeper than the readers walk is harmless: they stop at their own depth bound.
std::optional<Tree> parse(const TSLanguage* grammar, std::string source,
                          std::chrono::milliseconds budget = std::chrono::milliseconds(5000));

}  // namespace docs_generation::syntax
