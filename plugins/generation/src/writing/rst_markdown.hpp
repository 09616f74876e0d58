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

// The document as Markdown: converted when `path` ends in .rst or .rest, else as is.
std::string documentAsMarkdown(const std::string& path, std::string_view text);

}  // namespace docs_generation
