#pragma once
// How POST /lab/rag describes itself in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_rag {

docs::RouteDoc ragQueryDoc();

}  // namespace docs_rag
