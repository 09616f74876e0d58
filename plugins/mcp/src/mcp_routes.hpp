#pragma once
// The /mcp routes: POST (JSON-RPC messages), GET (405) and DELETE (ends the session).

#include <docs/registry.hpp>

namespace docs_mcp {

class Endpoint;

// Declares the routes; `endpoint` answers them and outlives the registry's use of them.
void addMcpRoutes(docs::Registry& registry, Endpoint& endpoint);

}  // namespace docs_mcp
