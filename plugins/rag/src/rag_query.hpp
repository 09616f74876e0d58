#pragma once
// POST /lab/rag: validates the request, narrows it to the projects the caller may read,
// searches code and docs, and answers with the items or a Markdown answer.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <docs/http.hpp>
#include <docs/services/search.hpp>
#include <docs/support/chat_model.hpp>

#include "rag_services.hpp"
#include "rate_limiter.hpp"

namespace docs {
class Context;
}

namespace docs_rag {

struct QuerySettings {
  std::size_t maxQueryChars = 2000;
  int userRequestsPerMinute = 30;
  int addressRequestsPerMinute = 60;
  std::int64_t dailyModelTokens = 200000;  // per caller (user, or address when anonymous)
  int answerSources = 8;                   // items handed to the model or quoted
  bool rolePrior = true;                   // weigh hits by their file's role (role_prior.hpp)
  docs::support::ModelSettings model;
};

// The route and the Search service share one instance: one rate limit per caller.
class RagQuery final : public docs::Search {
 public:
  RagQuery(docs::Context& context, const RagServices& services, QuerySettings settings);
  void handle(docs::Request& request, docs::Response& response);
  docs::Json query(const docs::Json& body, const std::optional<docs::Principal>& caller,
                   std::string_view remoteAddress) override;

 private:
  // Rate limits first (a malformed body counts too), then the body, then the answer.
  docs::Json answer(const std::function<docs::Json()>& readBody, const std::optional<docs::Principal>& caller,
                    const std::string& address, int* retryAfter);

  docs::Context& context_;
  const RagServices& services_;
  QuerySettings settings_;
  RateLimiter perUser_;
  RateLimiter perAddress_;
};

}  // namespace docs_rag
