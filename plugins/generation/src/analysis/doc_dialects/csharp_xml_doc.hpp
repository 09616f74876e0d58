#pragma once
// C# XML doc comments (`///` lines) as DocFX and IntelliSense show them: <summary> and
// <remarks> as Markdown, <para> paragraphs, <code> blocks as C#, <c>, <see cref/langword/href>,
// <paramref> and <typeparamref> inline, <list> items; <param>, <typeparam>, <returns>,
// <value>, <exception cref> as the parameter table, returns and raises; <example> and
// <seealso> kept; <inheritdoc/> noted. The summary is the <summary>'s first sentence.

#include <string_view>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

// `comments`: the `///` lines as written, one after another.
doc_text::RenderedDoc renderCsharpXmlDoc(std::string_view comments);

}  // namespace docs_generation
