#pragma once
// How the page history routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs::collab {

RouteDoc listVersionsDoc();
RouteDoc getVersionDoc();
RouteDoc diffVersionDoc();
RouteDoc restoreVersionDoc();

}  // namespace docs::collab
