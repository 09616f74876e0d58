#pragma once
// POST /lab/rag, counted on GET /metrics with the questions the Search service answers.

#include <docs/registry.hpp>

namespace docs_rag {

class QueryMetrics;
class RagQuery;

// Declares the route; `query` answers it and `metrics` counts it, both kept by the plugin
// for good.
void addRagRoutes(docs::Registry& registry, RagQuery& query, QueryMetrics& metrics);

}  // namespace docs_rag
