// The github plugin: the GitHub App (its JWT and installation tokens, offered to other
// plugins as GithubAccess), GET /api/github/{owner}/{repo}/installation/status and the
// webhook that keeps repository projects in sync. The logic lives in docs_github_lib;
// this is the loadable shell.
#include <docs/config_keys.hpp>
#include <docs/plugin.hpp>
#include <docs/services/linked_accounts.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include "github_app.hpp"
#include "github_routes.hpp"
#include "webhook.hpp"

#include "github_migrations.hpp"

namespace {

std::string trimSlash(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

class GithubPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs::declare(registry, docs::kGithubUrl);
    registry.configKey("github.api_url", "https://api.github.com",
                       "GitHub REST API base URL (GitHub Enterprise: https://ghe.example.com/api/v3).");
    registry.configKey("github.app_id", "", "The GitHub App's id (empty: no app; public repositories only).");
    registry.configKey("github.private_key_file", "", "PEM file of the GitHub App's private key.");
    registry.configKey("github.webhook_secret", "",
                       "The GitHub App's webhook secret (empty: the webhook refuses every delivery).");
    registry.configKey(
        "github.delivery_retention_days", "30",
        "Days a webhook delivery (its id and body digest) is remembered against replays; GitHub redelivers for 3.");
    registry.configKey("github.prune_interval_seconds", "3600", "How often forgotten deliveries are pruned.");
    registry.configKey("github.app_slug", "", "GitHub App slug shown to the SPA (githubAppSlug in /config.json).");
    docs_plugin_github::registerMigrations(registry);
    // The New Project dialog links to the App's installation page by its slug.
    registry.clientSetting("githubAppSlug",
                           [slug = context_->config().getString("github.app_slug")] { return docs::Json(slug); });

    // The person's GitHub identity comes from the auth plugin; without it no private
    // repository is readable by anyone.
    registry.use(linkedAccounts_);

    const auto& config = context_->config();
    docs_github::AppSettings app;
    app.appId = config.getString("github.app_id");
    app.apiUrl = trimSlash(config.getString("github.api_url"));
    privateKeyFile_ = config.getString("github.private_key_file");
    auto accountOf = [this](const docs::Principal& caller) -> std::optional<docs::LinkedAccounts::Account> {
      if (!linkedAccounts_ || caller.anonymous()) return std::nullopt;
      return linkedAccounts_->linkedAccount(caller.userId, "github");
    };
    app_ = std::make_unique<docs_github::GithubApp>(app, accountOf);
    registry.provideService<docs::GithubAccess>(*app_);

    // Deliveries are remembered long enough to refuse replays, then forgotten.
    docs::PeriodicOptions prune;
    prune.interval = std::chrono::seconds(std::max<std::int64_t>(1, config.getInt("github.prune_interval_seconds")));
    std::int64_t retentionDays = std::max<std::int64_t>(1, config.getInt("github.delivery_retention_days"));
    registry.periodic("prune_deliveries", prune,
                      [this, retentionDays] { docs_github::pruneDeliveries(context_->db(), retentionDays); });

    routes_ = docs_github::addGithubRoutes(registry, *app_, trimSlash(config.getString(docs::kGithubUrl.key)),
                                           config.getString("github.webhook_secret"));
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
  docs::Context* context_ = nullptr;
  docs::ServiceRef<docs::LinkedAccounts> linkedAccounts_;
  std::string privateKeyFile_;
  std::unique_ptr<docs_github::GithubApp> app_;
  std::shared_ptr<docs_github::GithubRoutes> routes_;
};

}  // namespace

DOCS_PLUGIN(
    GithubPlugin, "github", "0.1.0", "projects,rbac",
    "The GitHub App: installation status, installation tokens, the webhook that keeps repository projects in sync")
