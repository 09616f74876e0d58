#pragma once
// How /mcp describes itself in GET /api/openapi.json: the HTTP side only (the JSON-RPC
// methods and tools are the Model Context Protocol's, listed by tools/list).

#include <docs/route_doc.hpp>

namespace docs::mcp {

RouteDoc postMcpDoc();
RouteDoc getMcpDoc();
RouteDoc deleteMcpDoc();

}  // namespace docs::mcp
