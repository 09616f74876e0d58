#pragma once
// Questions and searches over projects' code and documentation, answered as POST /lab/rag
// answers them, for plugins that serve them another way (the MCP server). Implemented by
// the rag plugin.

#include <optional>
#include <string_view>

#include "docs/http.hpp"

namespace docs {

class Search {
 public:
  static constexpr const char* kServiceId = "docs.search/1";
  virtual ~Search();

  // `body` is what POST /lab/rag takes (query, projectIds or is_all, is_code, is_docs,
  // is_llm, code_top_k, docs_top_k); the answer is the route's: an array of items, or a
  // Markdown string with its sources when is_llm is true. The same validation, readable
  // projects, rate limits (per caller and per address) and daily model budget apply.
  // Throws HttpError as the route answers: 400 for a bad field, 429 when rate limited.
  virtual Json query(const Json& body, const std::optional<Principal>& caller, std::string_view remoteAddress) = 0;
};

}  // namespace docs
