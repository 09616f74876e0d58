#pragma once
// The Projects calls of the spec (all but the GitHub installation status).

#include <docs/registry.hpp>

namespace docs_projects {

void addProjectRoutes(docs::Registry& registry);

}  // namespace docs_projects
