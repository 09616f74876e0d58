#pragma once
// C and C++ doc comments as Doxygen shows them: `///`, `//!`, `/** */` and `/*! */` (and
// the trailing `///<` forms), or the plain comment a header puts right above a
// declaration. The body is Markdown (Doxygen reads it so) with commands: @brief gives the
// summary (else the first sentence, as JAVADOC_AUTOBRIEF does); @param, @tparam,
// @return, @retval and @throws become the parameter table, returns and raises every
// dialect shares; @note, @warning, @since, @deprecated, @see, @pre and @post the notes;
// @code/@endcode and @verbatim blocks fenced code; inline @c, @p, @a, @b, @ref, \f$ and
// the few HTML tags comments use become Markdown; structural commands (@file, @class,
// @defgroup, @{ ...) and @internal sections are not shown. Linear in the comment's size.

#include <string>
#include <string_view>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

// The text of one or more comments as written (`///` lines, a `/** */` block, plain `//`
// or `/* */`), without their markers and each line's leading `*`, common indentation removed.
std::string doxygenCommentText(std::string_view comments);

// `text`: a comment's text as doxygenCommentText gives it. `codeLanguage`: the fence of
// @code blocks that name none ("cpp" or "c").
doc_text::RenderedDoc renderDoxygen(std::string_view text, std::string_view codeLanguage = "cpp");

}  // namespace docs_generation
