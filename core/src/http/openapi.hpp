#pragma once
// GET /api/openapi.json: an OpenAPI 3.1 document of the routes the loaded plugins
// registered, from the RouteDoc each declared next to its route (docs/route_doc.hpp).

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "docs/route_doc.hpp"
#include "http/router.hpp"

namespace docs::core {

struct OpenApiInfo {
  std::string title = "docsd API";
  std::string version;                                       // docsd's version
  std::string serverUrl;                                     // server.public_url; empty: "/"
  std::vector<std::pair<std::string, std::string>> plugins;  // loaded plugins and versions
};

// A route's description against its template: every declared path parameter is in the
// template, no parameter or status is listed twice, statuses are 100..599. Throws
// std::invalid_argument naming the route.
void checkRouteDoc(const std::string& method, const std::string& pathTemplate, const RouteDoc& doc);

// Adds the description's named schemas to `into`; the same name must be the same schema
// (std::invalid_argument otherwise).
void mergeSchemas(std::map<std::string, Json>& into, const RouteDoc& doc, const std::string& where);

// The document of every route in `router` (described or bare) and the core's own.
Json buildOpenApiDocument(const Router& router, const std::map<std::string, Json>& schemas, const OpenApiInfo& info);

// Registers GET /api/openapi.json (owner "core") serving the document of the router's
// routes as they are now, itself included. Call once every plugin has configured.
void addOpenApiRoute(Router& router, const std::map<std::string, Json>& schemas, const OpenApiInfo& info);

}  // namespace docs::core
