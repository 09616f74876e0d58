#pragma once
// How the role routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_rbac {

docs::RouteDoc listGrantsDoc();
docs::RouteDoc grantDoc();
docs::RouteDoc changeGrantDoc();
docs::RouteDoc revokeDoc();

}  // namespace docs_rbac
