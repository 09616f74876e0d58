#pragma once
// Go doc comments as `go doc` and pkg.go.dev render them (the Go 1.19 syntax of
// go/doc/comment): paragraphs of plain text, indented spans as code blocks, `# ` headings,
// indented `-` or `1.` lists, [Name] doc links (read as code here: they point into
// pkg.go.dev), [text] links with `[text]: URL` definitions, and bare URLs as links. Plain
// text is escaped, so nothing in it reads as Markdown. Linear in the comment's size.

#include <string>
#include <string_view>

namespace docs_generation {

// `text`: the comment group's text without its markers (`//` and the one space after it,
// or `/*` and `*/`), one line each.
std::string goDocMarkdown(std::string_view text);

// Go's exported-name rule: the name starts with an upper-case (Unicode) letter.
bool goExported(std::string_view name);

}  // namespace docs_generation
