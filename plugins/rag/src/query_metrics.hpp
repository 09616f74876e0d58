#pragma once
// Questions counted on GET /metrics (docs/metrics.md) whichever way they come: POST /lab/rag
// (via "http") or the Search service another plugin calls (via "service", the MCP server).

#include <docs/metrics.hpp>
#include <docs/services/search.hpp>

#include <functional>

namespace docs_rag {

class QueryMetrics {
 public:
  explicit QueryMetrics(docs::Metrics& metrics);
  // Runs `answer`, counting it by its outcome: answered, refused (a 4xx HttpError), failed
  // (a 5xx or anything else thrown). Rethrows what `answer` throws.
  void count(const char* via, const std::function<int()>& answer);

 private:
  docs::Counter& queries_;
  docs::Histogram& seconds_;
};

// The Search service with its questions counted; forwards to the route's RagQuery (one
// rate limiter for both).
class CountedSearch final : public docs::Search {
 public:
  CountedSearch(docs::Search& inner, QueryMetrics& metrics) : inner_(inner), metrics_(metrics) {}
  docs::Json query(const docs::Json& body, const std::optional<docs::Principal>& caller,
                   std::string_view remoteAddress) override;

 private:
  docs::Search& inner_;
  QueryMetrics& metrics_;
};

}  // namespace docs_rag
