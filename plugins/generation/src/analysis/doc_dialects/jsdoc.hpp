#pragma once
// JSDoc and TSDoc comments as TypeDoc shows them: a Markdown body (lines with or without
// their leading `*`), {@link} tags as their text, and the block tags: @param (with
// {type}, [optional=default] and `name - text` forms) and @typeParam/@template as one
// parameter table, @returns, @throws, @example as code, @deprecated, @since, @see and
// @remarks. Linear in the comment's size.

#include <string>
#include <string_view>

namespace docs_generation {

struct JsDoc {
  std::string markdown;
  bool isPrivate = false;  // @internal, @private, @hidden, @ignore
  bool moduleDoc = false;  // @packageDocumentation, @module, @file, @fileoverview
};

// `comment`: the whole comment, `/**` and `*/` included.
JsDoc jsdocMarkdown(std::string_view comment, std::string_view codeLanguage = "ts");

}  // namespace docs_generation
