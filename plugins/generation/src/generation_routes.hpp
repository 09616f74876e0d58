#pragma once
// GET /api/project/{id}/generation (the status history of a project's generation) and
// POST /api/project/{id}/generation/retry.

#include <docs/registry.hpp>

namespace docs_generation {

class GenerationService;
struct GenerationServices;

// Declares the routes; `generation` answers them and `services.access` checks the caller,
// both kept by the plugin for good.
void addGenerationRoutes(docs::Registry& registry, GenerationService& generation, GenerationServices& services);

}  // namespace docs_generation
