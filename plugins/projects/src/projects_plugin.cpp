// The projects plugin: the spec's Projects calls and the Projects service. The logic
// lives in docs_projects_lib; this is the loadable shell.

#include <docs/config_keys.hpp>
#include <docs/plugin.hpp>

#include <memory>

#include "project_routes.hpp"
#include "projects_service.hpp"

#include "projects_migrations.hpp"

namespace {

class ProjectsPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    docs::declare(registry, docs::kGithubUrl);
    registry.configKey("projects.max_per_user", "100", "Projects one person may create (0: no limit).");
    registry.configKey("projects.max_upload_mb_per_user", "2048",
                       "Megabytes of ZIP uploads the projects one person created may hold together (0: no limit).");
    docs_plugin_projects::registerMigrations(registry);
    service_ = std::make_unique<docs_projects::ProjectsService>(registry.context());
    registry.provideService<docs::Projects>(*service_);
    routes_ = docs_projects::addProjectRoutes(registry);
  }

 private:
  std::unique_ptr<docs_projects::ProjectsService> service_;
  std::shared_ptr<docs_projects::ProjectRoutes> routes_;
};

}  // namespace

// rbac is a hard dependency (every call asks AccessControl, which is required); Pages and
// GithubAccess are used, not required, since pages and github require Projects.
DOCS_PLUGIN(ProjectsPlugin, "projects", "1.0.0", "rbac",
            "Projects: create, list, rename, visibility, delete, ZIP upload")
