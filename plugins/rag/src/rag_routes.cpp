#include "rag_routes.hpp"

#include "query_metrics.hpp"
#include "rag_docs.hpp"
#include "rag_query.hpp"

namespace docs_rag {

void addRagRoutes(docs::Registry& registry, RagQuery& query, QueryMetrics& metrics) {
  docs::RouteOptions small;
  small.maxBodyBytes = 64 << 10;
  registry.route(
      docs::Method::Post, "/lab/rag",
      [&query, &metrics](docs::Request& request, docs::Response& response) {
        metrics.count("http", [&] {
          query.handle(request, response);
          return response.status();
        });
      },
      small, ragQueryDoc());
}

}  // namespace docs_rag
