#pragma once
// reStructuredText (Sphinx documentation, Python READMEs) rewritten as Markdown, so one
// converter (markdown_blocks) makes the page nodes. Covers what guides use: section
// titles by their underline style, paragraphs, bullet and numbered lists, literal blocks
// (`::`), code-block directives with their language, doctest blocks, admonitions as
// callouts, images, links, inline literals and Sphinx roles (:func:`x` as code). Other
// directives (toctree, autodoc options, includes) and comments are left out; tables are
// kept as preformatted text. Line by line, linear in the input.

#include <string>
#include <string_view>

namespace docs_generation {

std::string restructuredTextToMarkdown(std::string_view rst);

// One line's inline markup (``literal``, :role:`x`, `text <url>`_, ...) as Markdown.
std::string restructuredTextInline(const std::string& text);

// The document as Markdown: converted when `path` ends in .rst or .rest, else read as
// MyST and mkdocstrings Markdown (myst_markdown.hpp).
std::string documentAsMarkdown(const std::string& path, std::string_view text);

// A Sphinx role's text as the site shows it (shared with MyST's {role}`x`): code for
// references to code (`~a.b.c` as `c`), the title of "title <target>" for ref, term and
// the like, a link for doc, emphasis and strong as such.
std::string restructuredTextRole(const std::string& role, std::string content);

// The GitHub alert kind ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION") of a Sphinx
// admonition directive (note, seealso, deprecated, ...), or "" when `directive` is none.
std::string admonitionAlertKind(const std::string& directive);

}  // namespace docs_generation
