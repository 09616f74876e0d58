#pragma once
// How the page routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_pages {

docs::RouteDoc createPageDoc();
docs::RouteDoc getPageDoc();
docs::RouteDoc updatePageDoc();
docs::RouteDoc deletePageDoc();
docs::RouteDoc getContentDoc();
docs::RouteDoc putContentDoc();
docs::RouteDoc exportPageDoc();
docs::RouteDoc uploadImageDoc();
docs::RouteDoc serveImageDoc();
docs::RouteDoc signImageDoc();

}  // namespace docs_pages
