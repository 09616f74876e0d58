#include "generation_routes.hpp"

#include "generation_docs.hpp"
#include "generation_service.hpp"
#include "generation_services.hpp"
#include "source_view.hpp"

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
  // One source file for the web app's source view (readers of the project).
  registry.route(
      docs::Method::Get, "/api/project/{id}/source",
      [&generation, &services](Request& request, Response& response) {
        auto id = request.idParam("id");
        services.access->require(id, request.principal(), Role::Read);
        std::string path = request.query("path").value_or("");
        if (auto problem = sourcePathProblem(path); !problem.empty())
          throw docs::HttpError::badRequest(problem, "invalid_path");
        auto file = readSourceFile(generation.sourceRoot(id), path);
        if (!file) throw docs::HttpError::notFound("No text file " + path + " in the project's sources");
        response.setHeader("Cache-Control", "private, no-cache");
        response.json({{"path", file->path}, {"text", file->text}, {"truncated", file->truncated}});
      },
      {}, sourceFileDoc());
}

}  // namespace docs_generation
