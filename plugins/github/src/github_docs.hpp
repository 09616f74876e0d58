#pragma once
// How the GitHub routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs::github {

RouteDoc installationStatusDoc();
RouteDoc webhookDoc();

}  // namespace docs::github
