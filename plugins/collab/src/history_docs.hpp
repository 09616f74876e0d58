#pragma once
// How the page history routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_collab {

docs::RouteDoc listVersionsDoc();
docs::RouteDoc getVersionDoc();
docs::RouteDoc diffVersionDoc();
docs::RouteDoc restoreVersionDoc();

}  // namespace docs_collab
