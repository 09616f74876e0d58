#pragma once
// The GitHub calls: GET /api/github/{owner}/{repo}/installation/status and the webhook.

#include <memory>
#include <string>

#include <docs/registry.hpp>

namespace docs_github {

class GithubApp;
class GithubRoutes;

// Declares the routes and the services they require (Projects, AccessControl). Keep the
// result for good: the host fills the service refs it holds. `githubUrl` has no trailing
// slash; an empty `webhookSecret` makes the webhook refuse every delivery.
std::shared_ptr<GithubRoutes> addGithubRoutes(docs::Registry& registry, GithubApp& app, std::string githubUrl,
                                              std::string webhookSecret);

}  // namespace docs_github
