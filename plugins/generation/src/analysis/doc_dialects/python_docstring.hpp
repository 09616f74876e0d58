#pragma once
// Python docstrings as Sphinx shows them: the body is reStructuredText (roles, literal
// and doctest blocks, admonitions), or Markdown when it has ``` fences (mkdocstrings'
// readers), and the fields in any of the three conventions
// (reST `:param x:` field lists, Google `Args:` sections, NumPy underlined sections)
// become one parameter table, returns and raises. Linear in the docstring's size.

#include <string>
#include <string_view>

namespace docs_generation {

// `docstring`: the string's content, its indentation as written (cleaned here).
std::string pythonDocstringMarkdown(std::string_view docstring);

}  // namespace docs_generation
