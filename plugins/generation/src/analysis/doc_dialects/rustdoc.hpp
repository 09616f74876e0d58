#pragma once
// Rust doc comments as rustdoc renders them: Markdown whose code blocks are Rust unless
// they say otherwise (with `# ` lines hidden, as rustdoc hides them), whose intra-doc
// links ([`Foo`], [text](crate::foo), [text][ref]) read as their text, since they point
// into rustdoc's own pages. Linear in the comment's size.

#include <string>
#include <string_view>

namespace docs_generation {

// `lines`: the comment's text without its markers (`///`, `//!`, `/** */`), one line each.
std::string rustdocMarkdown(std::string_view text);

}  // namespace docs_generation
