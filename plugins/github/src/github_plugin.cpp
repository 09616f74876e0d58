// The github plugin: the GitHub App (its JWT and installation tokens, offered to other
// plugins as GithubAccess), GET /api/github/{owner}/{repo}/installation/status and the
// webhook that keeps repository projects in sync.
#include <docs/config_keys.hpp>
#include <docs/db.hpp>
#include <docs/plugin.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/linked_accounts.hpp>
#include <docs/services/projects.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

#include "github_app.hpp"
#include "github_docs.hpp"
#include "webhook.hpp"

#include "github_migrations.hpp"

namespace {

std::string trimSlash(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

bool repositoryPart(const std::string& part) {
  if (part.empty() || part.size() > 100 || part == "." || part == "..") return false;
  for (char c : part)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

class GithubPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs::declare(registry, docs::kGithubUrl);
    registry.configKey("github.api_url", "https://api.github.com", "GitHub REST API base URL (GitHub Enterprise: https://ghe.example.com/api/v3).");
    registry.configKey("github.app_id", "", "The GitHub App's id (empty: no app; public repositories only).");
    registry.configKey("github.private_key_file", "", "PEM file of the GitHub App's private key.");
    registry.configKey("github.webhook_secret", "", "The GitHub App's webhook secret (empty: the webhook refuses every delivery).");
    registry.configKey("github.delivery_retention_days", "30",
                       "Days a webhook delivery (its id and body digest) is remembered against replays; GitHub redelivers for 3.");
    registry.configKey("github.prune_interval_seconds", "3600", "How often forgotten deliveries are pruned.");
    registry.configKey("github.app_slug", "", "GitHub App slug shown to the SPA (githubAppSlug in /config.json).");
    docs_plugin_github::registerMigrations(registry);
    // The New Project dialog links to the App's installation page by its slug.
    registry.clientSetting("githubAppSlug", [slug = context_->config().getString("github.app_slug")] { return docs::Json(slug); });

    // Projects and AccessControl answer the installation status and the webhook; the
    // person's GitHub identity comes from the auth plugin, and without it no private
    // repository is readable by anyone.
    registry.require(projects_);
    registry.require(access_);
    registry.use(linkedAccounts_);

    const auto& config = context_->config();
    docs::github::AppSettings app;
    app.appId = config.getString("github.app_id");
    app.apiUrl = trimSlash(config.getString("github.api_url"));
    privateKeyFile_ = config.getString("github.private_key_file");
    githubUrl_ = trimSlash(config.getString(docs::kGithubUrl.key));
    auto accountOf = [this](const docs::Principal& caller) -> std::optional<docs::LinkedAccounts::Account> {
      if (!linkedAccounts_ || caller.anonymous()) return std::nullopt;
      return linkedAccounts_->linkedAccount(caller.userId, "github");
    };
    app_ = std::make_unique<docs::github::GithubApp>(app, accountOf);
    registry.provideService<docs::GithubAccess>(*app_);
    webhook_ = std::make_unique<docs::github::Webhook>(*context_, projects_, config.getString("github.webhook_secret"),
                                                       githubUrl_);

    // Deliveries are remembered long enough to refuse replays, then forgotten.
    docs::PeriodicOptions prune;
    prune.interval = std::chrono::seconds(std::max<std::int64_t>(1, config.getInt("github.prune_interval_seconds")));
    std::int64_t retentionDays = std::max<std::int64_t>(1, config.getInt("github.delivery_retention_days"));
    registry.periodic("prune_deliveries", prune, [this, retentionDays] {
      context_->db().exec("DELETE FROM github_deliveries WHERE received_at < now() - make_interval(days => $1)",
                          {retentionDays});
    });

    registry.route(docs::Method::Get, "/api/github/{owner}/{repo}/installation/status",
                   [this](docs::Request& request, docs::Response& response) { installationStatus(request, response); }, {},
                   docs::github::installationStatusDoc());
    docs::RouteOptions webhook;
    webhook.maxBodyBytes = 25 << 20;  // GitHub caps payloads at 25 MB
    webhook.anonymousBody = true;     // GitHub signs the body instead
    registry.route(docs::Method::Post, "/api/github/webhook",
                   [this](docs::Request& request, docs::Response& response) { webhook_->handle(request, response); }, webhook,
                   docs::github::webhookDoc());
  }

  // The key file is read here, not in configure(): `docsd help` and the commands never need it.
  void start() override {
    if (privateKeyFile_.empty()) return;
    std::ifstream in(privateKeyFile_);
    if (!in) throw std::runtime_error("cannot read github.private_key_file " + privateKeyFile_);
    std::stringstream text;
    text << in.rdbuf();
    app_->setPrivateKey(text.str());
  }

 private:
  // Answers only about what the caller may read: a repository they cannot read on GitHub,
  // and a private project they hold no role in, look exactly like nothing there.
  void installationStatus(docs::Request& request, docs::Response& response) {
    const auto& caller = request.requirePrincipal();
    std::string owner = request.param("owner");
    std::string repo = request.param("repo");
    if (repo.size() > 4 && repo.ends_with(".git")) repo.resize(repo.size() - 4);
    if (!repositoryPart(owner) || !repositoryPart(repo)) throw docs::HttpError::badRequest("Invalid GitHub URL", "invalid_repository");
    auto project = projects_->findByGitUrl(githubUrl_ + "/" + owner + "/" + repo);
    docs::Json out = {{"is_project_already_exists", false}};
    if (project) {
      // 'View project' leads there only for callers who may read it.
      try {
        access_->requireKnown(project->id, project->isPublic(), caller, docs::Role::Read);
        out["is_project_already_exists"] = true;
        out["project_id"] = project->id;
      } catch (const docs::HttpError&) {
      }
    }
    // Without an app, repositories are cloned anonymously: public ones work.
    if (!app_->configured()) out["has_installation_access"] = true;
    else {
      try {
        out["has_installation_access"] = app_->installationReadableBy(owner, repo, caller) > 0;
      } catch (const std::exception& error) {
        throw docs::HttpError(502, "github_unavailable", std::string("Could not ask GitHub: ") + error.what());
      }
    }
    response.json(out);
  }

  docs::Context* context_ = nullptr;
  docs::ServiceRef<docs::Projects> projects_;
  docs::ServiceRef<docs::AccessControl> access_;
  docs::ServiceRef<docs::LinkedAccounts> linkedAccounts_;
  std::string privateKeyFile_;
  std::string githubUrl_;
  std::unique_ptr<docs::github::GithubApp> app_;
  std::unique_ptr<docs::github::Webhook> webhook_;
};

}  // namespace

DOCS_PLUGIN(GithubPlugin, "github", "0.1.0", "projects,rbac",
            "The GitHub App: installation status, installation tokens, the webhook that keeps repository projects in sync")
