#pragma once
// How /mcp describes itself in GET /api/openapi.json: the HTTP side only (the JSON-RPC
// methods and tools are the Model Context Protocol's, listed by tools/list).

#include <docs/route_doc.hpp>

namespace docs_mcp {

docs::RouteDoc postMcpDoc();
docs::RouteDoc getMcpDoc();
docs::RouteDoc deleteMcpDoc();

}  // namespace docs_mcp
