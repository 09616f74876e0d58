#include "generation_routes.hpp"

#include "generation_docs.hpp"
#include "generation_service.hpp"
#include "generation_services.hpp"

namespace docs_generation {

void addGenerationRoutes(docs::Registry& registry, GenerationService& generation, GenerationServices& services) {
  using docs::Request;
  using docs::Response;
  using docs::Role;
  registry.route(
      docs::Method::Get, "/api/project/{id}/generation",
      [&generation, &services](Request& request, Response& response) {
        auto id = request.idParam("id");
        services.access->require(id, request.principal(), Role::Read);
        response.json(generation.describe(id));
      },
      {}, generationStatusDoc());
  // Starts a failed run again from the stage that failed (writers of the project).
  registry.route(
      docs::Method::Post, "/api/project/{id}/generation/retry",
      [&generation, &services](Request& request, Response& response) {
        auto id = request.idParam("id");
        services.access->require(id, request.principal(), Role::Write);
        response.json({{"stage", generation.retry(id)}}, 202);
      },
      {}, retryGenerationDoc());
}

}  // namespace docs_generation
