#include "github_routes.hpp"

#include <cctype>
#include <exception>

#include <docs/services/access_control.hpp>
#include <docs/services/projects.hpp>

#include "github_app.hpp"
#include "github_docs.hpp"
#include "webhook.hpp"

namespace docs_github {

using docs::HttpError;
using docs::Json;

namespace {

bool repositoryPart(const std::string& part) {
  if (part.empty() || part.size() > 100 || part == "." || part == "..") return false;
  for (char c : part)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

}  // namespace

class GithubRoutes {
 public:
  // Projects and AccessControl answer the installation status and the webhook.
  GithubRoutes(docs::Registry& registry, GithubApp& app, std::string githubUrl, std::string webhookSecret)
      : app_(app),
        githubUrl_(std::move(githubUrl)),
        webhook_(registry.context(), projects_, std::move(webhookSecret), githubUrl_) {
    registry.require(projects_);
    registry.require(access_);
  }

  // Answers only about what the caller may read: a repository they cannot read on GitHub,
  // and a private project they hold no role in, look exactly like nothing there.
  void installationStatus(docs::Request& request, docs::Response& response) {
    const auto& caller = request.requirePrincipal();
    const std::string& owner = request.param("owner");
    std::string repo = request.param("repo");
    if (repo.size() > 4 && repo.ends_with(".git")) repo.resize(repo.size() - 4);
    if (!repositoryPart(owner) || !repositoryPart(repo))
      throw HttpError::badRequest("Invalid GitHub URL", "invalid_repository");
    auto project = projects_->findByGitUrl(githubUrl_ + "/" + owner + "/" + repo);
    Json out = {{"is_project_already_exists", false}};
    if (project) {
      // 'View project' leads there only for callers who may read it.
      try {
        access_->requireKnown(project->id, project->isPublic(), caller, docs::Role::Read);
        out["is_project_already_exists"] = true;
        out["project_id"] = project->id;
      } catch (const HttpError&) {
      }
    }
    // Without an app, repositories are cloned anonymously: public ones work.
    if (!app_.configured()) out["has_installation_access"] = true;
    else {
      try {
        out["has_installation_access"] = app_.installationReadableBy(owner, repo, caller) > 0;
      } catch (const std::exception& error) {
        throw HttpError(502, "github_unavailable", std::string("Could not ask GitHub: ") + error.what());
      }
    }
    response.json(out);
  }

  void webhook(docs::Request& request, docs::Response& response) { webhook_.handle(request, response); }

 private:
  docs::ServiceRef<docs::Projects> projects_;
  docs::ServiceRef<docs::AccessControl> access_;
  GithubApp& app_;
  std::string githubUrl_;
  Webhook webhook_;  // holds projects_ by reference: declared after it
};

std::shared_ptr<GithubRoutes> addGithubRoutes(docs::Registry& registry, GithubApp& app, std::string githubUrl,
                                              std::string webhookSecret) {
  auto routes = std::make_shared<GithubRoutes>(registry, app, std::move(githubUrl), std::move(webhookSecret));
  using docs::Method;
  using docs::Request;
  using docs::Response;
  registry.route(
      Method::Get, "/api/github/{owner}/{repo}/installation/status",
      [routes](Request& q, Response& r) { routes->installationStatus(q, r); }, {}, installationStatusDoc());
  docs::RouteOptions webhook;
  webhook.maxBodyBytes = 25 << 20;  // GitHub caps payloads at 25 MB
  webhook.anonymousBody = true;     // GitHub signs the body instead, checked as it streams
  webhook.streamBody = true;        // refused from its headers before the body is read
  registry.route(
      Method::Post, "/api/github/webhook", [routes](Request& q, Response& r) { routes->webhook(q, r); }, webhook,
      webhookDoc());
  return routes;
}

}  // namespace docs_github
