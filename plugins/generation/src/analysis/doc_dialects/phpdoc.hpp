#pragma once
// PHP doc comments as phpDocumentor shows them: a Markdown body with inline {@see X},
// {@link url text} and {@inheritDoc}; block tags @param Type $name, @return, @throws,
// @var (a property's), @deprecated, @since, @see, @link, @example; @internal marks what
// is not API.

#include <string_view>

#include "analysis/doc_dialects/doc_text.hpp"

namespace docs_generation {

struct PhpDoc {
  doc_text::RenderedDoc rendered;
  bool internal = false;  // @internal: not part of the API
};

// `comment`: as written, `/**` and `*/` included.
PhpDoc renderPhpDoc(std::string_view comment);

}  // namespace docs_generation
