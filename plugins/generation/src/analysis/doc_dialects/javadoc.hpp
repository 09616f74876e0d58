#pragma once
// Java doc comments as javadoc shows them, and Kotlin's as Dokka does. Javadoc's body is
// HTML with inline tags ({@code}, {@link}, ...): it becomes Markdown (paragraphs, lists,
// tables, ```java blocks from <pre>), links into javadoc's own pages read as their names.
// KDoc's body is Markdown already: its [Name] links read as their text. The block tags of
// both (@param, @return, @throws, @since, ...) become the parameter table, returns,
// raises and notes every dialect shares (doc_text::Sections). Linear in the comment's
// size, with inline tags nested at most a few deep read as text below that.

#include <string>
#include <string_view>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

using doc_text::RenderedDoc;

// `comment`: the comment as written, `/**` and `*/` included.
RenderedDoc renderJavadoc(std::string_view comment);
RenderedDoc renderKdoc(std::string_view comment);

std::string javadocMarkdown(std::string_view comment);
std::string kdocMarkdown(std::string_view comment);

}  // namespace docs_generation
