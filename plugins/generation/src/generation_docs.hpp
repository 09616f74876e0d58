#pragma once
// How the generation routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_generation {

docs::RouteDoc generationStatusDoc();
docs::RouteDoc retryGenerationDoc();
docs::RouteDoc sourceFileDoc();

}  // namespace docs_generation
