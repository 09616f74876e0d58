#pragma once
// The other plugins' services generation works with, declared in configure() and filled
// by the host before start(); the plugin owns them, its objects keep references.

#include <docs/registry.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/github_access.hpp>
#include <docs/services/projects.hpp>

#include "writing/page_writer.hpp"

namespace docs_generation {

// Required: Projects (statuses, uploads), Pages and Documents (through PageServices) and
// AccessControl (the routes). Used: GithubAccess (an installation token for the clone
// when the GitHub App is set up), and collab's history (PageServices).
struct GenerationServices : PageServices {
  docs::ServiceRef<docs::Projects> projects;
  docs::ServiceRef<docs::AccessControl> access;
  docs::ServiceRef<docs::GithubAccess> github;

  void declare(docs::Registry& registry);
};

}  // namespace docs_generation
