// The auth plugin module: declares keys, migrations, routes, tasks and the
// Authenticator and LinkedAccounts services; the parts live in the docs_auth library.
#include <docs/plugin.hpp>

#include <algorithm>
#include <memory>

#include "auth_core.hpp"
#include "linked_accounts_service.hpp"
#include "mail_job.hpp"
#include "routes.hpp"
#include "token_routes.hpp"

#include "auth_migrations.hpp"

namespace {

class AuthPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs::auth::AuthSettings::declareKeys(registry);
    docs_plugin_auth::registerMigrations(registry);
    core_ = std::make_unique<docs::auth::AuthCore>(*context_, docs::auth::AuthSettings::read(context_->config()));
    linkedAccounts_ = std::make_unique<docs::auth::LinkedAccountsService>(core_->accounts());
    docs::auth::registerRoutes(registry, *core_);
    docs::auth::registerTokenRoutes(registry, *core_);
    registry.provideService<docs::Authenticator>(*core_);
    registry.provideService<docs::LinkedAccounts>(*linkedAccounts_);
    // The web app signs in at authUrl (auth.<host> with server.subhosts).
    registry.clientEndpoint({"authUrl", "auth"});
    // Mail other plugins queue (comments: mentions), by the sign-in codes' path.
    registry.jobHandler(docs::auth::kSendMailJob,
                        [this](docs::JobContext& job) { docs::auth::runSendMailJob(core_->mailer(), job); });

    registry.configKey("auth.maintenance_interval_seconds", "3600", "How often keys are rotated when due and spent codes and sessions are dropped.");
    docs::PeriodicOptions hourly;
    hourly.interval = std::chrono::seconds(std::max<std::int64_t>(1, context_->config().getInt("auth.maintenance_interval_seconds")));
    registry.periodic("rotate_keys", hourly, [this] { core_->keys().rotate(); });
    registry.periodic("clean_up", hourly, [this] {
      core_->codes().cleanUp();
      core_->limits().cleanUp();
      context_->db().exec("DELETE FROM auth_sessions WHERE expires_at < now() - interval '30 days'"
                          " OR revoked_at < now() - interval '30 days'");
    });
  }

  void start() override { core_->open(); }

 private:
  docs::Context* context_ = nullptr;
  std::unique_ptr<docs::auth::AuthCore> core_;
  std::unique_ptr<docs::auth::LinkedAccountsService> linkedAccounts_;
};

}  // namespace

DOCS_PLUGIN(AuthPlugin, "auth", "1.0.0", "", "Accounts, email one-time codes, GitHub sign-in, sessions and JWTs")
