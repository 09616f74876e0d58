#include "query_metrics.hpp"

#include <chrono>

namespace docs_rag {

using docs::HttpError;
using docs::Json;
using docs::Metrics;
using docs::Principal;

QueryMetrics::QueryMetrics(Metrics& metrics)
    : queries_(
          metrics.counter("docsd_rag_queries_total",
                          "Questions, by way in (http: POST /lab/rag, service: another plugin such as MCP) and outcome "
                          "(answered, refused: a 4xx, failed: a 5xx).",
                          {"via", "outcome"})),
      seconds_(metrics.histogram("docsd_rag_query_seconds", "Time to answer one question, by way in.", {"via"},
                                 {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60})) {}

void QueryMetrics::count(const char* via, const std::function<int()>& answer) {
  const auto started = std::chrono::steady_clock::now();
  auto record = [&](int status) {
    queries_.inc({via, status < 400 ? "answered" : status < 500 ? "refused" : "failed"});
    seconds_.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), {via});
  };
  int status = 0;
  try {
    status = answer();
  } catch (const HttpError& error) {
    record(error.status());
    throw;
  } catch (...) {
    record(500);
    throw;
  }
  record(status);
}

Json CountedSearch::query(const Json& body, const std::optional<Principal>& caller, std::string_view remoteAddress) {
  Json out;
  metrics_.count("service", [&] {
    out = inner_.query(body, caller, remoteAddress);
    return 200;
  });
  return out;
}

}  // namespace docs_rag
