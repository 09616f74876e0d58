#pragma once
// Ruby doc comments as YARD shows them: the `#` lines above a declaration, a Markdown
// body (RDoc's `+code+` as code), and block tags: @param name [Type], @option,
// @return [Type], @raise [Type], @yield, @yieldparam, @yieldreturn, @example (its
// indented lines as Ruby code), @note, @deprecated, @since, @see; `@api private` and
// @private mark what is not API; directives (@!attribute, @!method) are not shown.

#include <string_view>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

struct YardDoc {
  doc_text::RenderedDoc rendered;
  bool isPrivate = false;
};

// `comments`: the `#` lines as written, one after another.
YardDoc renderYard(std::string_view comments);

}  // namespace docs_generation
