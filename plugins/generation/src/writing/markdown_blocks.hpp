#pragma once
// Markdown (GitHub's dialect, read by md4c) converted to the editor's block nodes
// (core/ydoc/schema.json): headings, paragraphs, lists and task lists, tables, code
// blocks with their language, quotes, GitHub and MkDocs/Docusaurus admonitions as
// callouts, images, links. A repository's README and guides arrive as real nodes, never
// as escaped Markdown. Badges and raw HTML are left out. Any input converts in time
// linear in its size, nesting is capped, and the output always fits the schema.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include <docs/ydoc/any.hpp>

namespace docs_generation {

struct MarkdownOptions {
  // A link's new target: a page, a file at its commit, or the address as written. ""
  // keeps the text without a link.
  std::function<std::string(const std::string& href)> link;
  // An image's address to show; "" leaves the image out.
  std::function<std::string(const std::string& src)> image;
  std::size_t maxBytes = 1 << 20;  // longer input is cut at a line end
};

// The blocks of `markdown`: a JSON array of block nodes, possibly empty.
docs::ydoc::Json markdownBlocks(std::string_view markdown, const MarkdownOptions& options = {});

// The title a guide gives itself: YAML front matter's `title:`, else its first heading
// ("" when it has neither). Inline Markdown is reduced to its text.
std::string markdownTitle(std::string_view markdown);

// MkDocs (`!!! note "Title"` with an indented body, `???` too) and Docusaurus
// (`:::tip Title` ... `:::`) admonitions rewritten as GitHub alerts (`> [!TIP]`), which
// markdownBlocks turns into callouts. Exposed for tests.
std::string normaliseAdmonitions(std::string_view markdown);

// A doc comment's text as inline nodes, by its language's conventions: JSDoc and Rust
// docs are Markdown ({@link X} reads as `X`), Go's [Name] links read as `Name`; other
// languages' comments are plain text with `backticked` code. Links that are not http(s)
// keep their text only (they point into a documentation site the pages do not have).
docs::ydoc::Json docCommentInlines(const std::string& text, const std::string& language);

// The plain text of inline nodes (a heading's or a paragraph's content).
std::string inlineText(const docs::ydoc::Json& node);

}  // namespace docs_generation
