#include "generation_routes.hpp"

#include "analysis/analysis_service.hpp"
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
        docs::Json answer = {{"path", file->path}, {"text", file->text}, {"truncated", file->truncated}};
        // A repository project's file on its host at the generated commit, one click away.
        if (auto project = services.projects->find(id);
            project && !project->gitUrl.empty() && !project->commitHash.empty()) {
          std::string url = sourceLineUrl(project->gitUrl, project->commitHash, file->path, 1, 1);
          answer["web_url"] = url.substr(0, url.rfind('#'));
          answer["commit"] = project->commitHash;
        }
        response.json(answer);
      },
      {}, sourceFileDoc());
}

}  // namespace docs_generation
