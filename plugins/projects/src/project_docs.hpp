#pragma once
// How the projects routes describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_projects {

docs::RouteDoc listProjectsDoc();
docs::RouteDoc getProjectDoc();
docs::RouteDoc createProjectDoc(bool zip);
docs::RouteDoc updateProjectDoc();
docs::RouteDoc deleteProjectDoc();
docs::RouteDoc createGithubProjectDoc();
docs::RouteDoc uploadZipDoc();

}  // namespace docs_projects
