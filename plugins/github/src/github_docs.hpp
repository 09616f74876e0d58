#pragma once
// How the GitHub routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_github {

docs::RouteDoc installationStatusDoc();
docs::RouteDoc webhookDoc();

}  // namespace docs_github
