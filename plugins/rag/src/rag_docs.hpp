#pragma once
// How POST /lab/rag describes itself in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs::rag {

RouteDoc ragQueryDoc();

}  // namespace docs::rag
