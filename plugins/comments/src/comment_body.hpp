#pragma once
// The rules of a comment's text: limited Markdown kept as written (the SPA renders it
// without HTML), at most kMaxBodyChars code points, no control characters but line
// breaks and tabs; and the project members it mentions (@alice@example.com).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace docs_comments {

inline constexpr std::size_t kMaxBodyChars = 10000;
inline constexpr std::size_t kMaxQuoteChars = 1000;

// The body trimmed of surrounding whitespace; throws HttpError 400 invalid_field when it
// is empty, too long or holds control characters.
std::string validBody(std::string_view body);
// The quoted passage (whitespace collapsed to single spaces, trimmed); throws 400 when too
// long or holding control characters other than whitespace.
std::string validQuote(std::string_view quote);
// Lower-case emails mentioned as @local@domain.tld, each once, in order of appearance.
// A mention starts the text or follows a character that cannot be part of an email.
std::vector<std::string> mentionedEmails(std::string_view body);

}  // namespace docs_comments
