#include "mcp_routes.hpp"

#include "endpoint.hpp"
#include "mcp_docs.hpp"

namespace docs_mcp {

void addMcpRoutes(docs::Registry& registry, Endpoint& endpoint) {
  using docs::Method;
  using docs::Request;
  using docs::Response;
  docs::RouteOptions small;
  small.maxBodyBytes = 64 << 10;  // the anonymous body limit: the same for every caller
  registry.route(
      Method::Post, "/mcp", [&endpoint](Request& q, Response& r) { endpoint.post(q, r); }, small, postMcpDoc());
  registry.route(
      Method::Get, "/mcp", [&endpoint](Request& q, Response& r) { endpoint.get(q, r); }, {}, getMcpDoc());
  registry.route(
      Method::Delete, "/mcp", [&endpoint](Request& q, Response& r) { endpoint.remove(q, r); }, {}, deleteMcpDoc());
}

}  // namespace docs_mcp
