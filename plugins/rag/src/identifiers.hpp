#pragma once
// Identifier-aware search text. PostgreSQL's parser keeps `parseHttpRequest` as one word
// and splits `parse_http_request` into three, so neither finds the other nor the words
// `parse http request`. Both sides are rewritten so that all three meet: every
// compound identifier is followed by its joined lowercase form and its parts.

#include <string>
#include <string_view>
#include <vector>

namespace docs_rag {

// "parseHTTPRequest2" -> {"parse", "http", "request", "2"}; "read_config_file" -> {"read",
// "config", "file"}. Lowercase; empty for a word without letters or digits.
std::vector<std::string> identifierParts(std::string_view word);

// The text with each compound identifier followed by its joined form and its parts.
std::string searchableText(std::string_view text);

// The words of identifiers, spaced and lowercase ("readConfigFile" -> "read config file"):
// the form trigram similarity compares.
std::string nameWords(std::string_view text);

// A to_tsquery('english', ...) expression for a user's query: one group per word, a
// compound word matching either its joined form or all its parts; groups joined with &
// (every word) or | (any word). Only [a-z0-9] and non-ASCII letters reach the expression. "" for no words.
std::string tsQueryExpression(std::string_view query, bool everyWord);

}  // namespace docs_rag
