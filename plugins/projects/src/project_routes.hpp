#pragma once
// The Projects calls of the spec (all but the GitHub installation status).

#include <memory>

#include <docs/registry.hpp>

namespace docs_projects {

class ProjectRoutes;

// Declares the routes and the services they require and use. Keep the result for good:
// the host fills the service refs it holds.
std::shared_ptr<ProjectRoutes> addProjectRoutes(docs::Registry& registry);

}  // namespace docs_projects
