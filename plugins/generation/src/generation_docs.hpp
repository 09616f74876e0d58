#pragma once
// How the generation routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs::generation {

RouteDoc generationStatusDoc();
RouteDoc retryGenerationDoc();

}  // namespace docs::generation
