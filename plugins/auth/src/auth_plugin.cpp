// The auth plugin module: declares keys, migrations, routes, tasks and the
// Authenticator and LinkedAccounts services. The logic lives in docs_auth_lib; this is
// the loadable shell.
#include <docs/plugin.hpp>

#include <algorithm>
#include <memory>

#include "auth_core.hpp"
#include "auth_routes.hpp"
#include "linked_accounts_service.hpp"
#include "mail_job.hpp"
#include "token_routes.hpp"

#include "auth_migrations.hpp"

namespace {

class AuthPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs_auth::AuthSettings::declareKeys(registry);
    docs_plugin_auth::registerMigrations(registry);
    core_ = std::make_unique<docs_auth::AuthCore>(*context_, docs_auth::AuthSettings::read(context_->config()));
    linkedAccounts_ = std::make_unique<docs_auth::LinkedAccountsService>(core_->accounts());
    docs_auth::addAuthRoutes(registry, *core_);
    docs_auth::addTokenRoutes(registry, *core_);
    registry.provideService<docs::Authenticator>(*core_);
    registry.provideService<docs::LinkedAccounts>(*linkedAccounts_);
    // The web app signs in at authUrl (auth.<host> with server.subhosts).
    registry.clientEndpoint({"authUrl", "auth"});
    // Mail other plugins queue (comments: mentions), by the sign-in codes' path.
    registry.jobHandler(docs_auth::kSendMailJob,
                        [this](docs::JobContext& job) { docs_auth::runSendMailJob(core_->mailer(), job); });

    registry.configKey("auth.maintenance_interval_seconds", "3600",
                       "How often keys are rotated when due and spent codes and sessions are dropped.");
    docs::PeriodicOptions hourly;
    hourly.interval =
        std::chrono::seconds(std::max<std::int64_t>(1, context_->config().getInt("auth.maintenance_interval_seconds")));
    registry.periodic("rotate_keys", hourly, [this] { core_->keys().rotate(); });
    registry.periodic("clean_up", hourly, [this] {
      core_->codes().cleanUp();
      core_->limits().cleanUp();
      core_->accounts().dropOldSessions();
    });
  }

  void start() override { core_->open(); }

 private:
  docs::Context* context_ = nullptr;
  std::unique_ptr<docs_auth::AuthCore> core_;
  std::unique_ptr<docs_auth::LinkedAccountsService> linkedAccounts_;
};

}  // namespace

DOCS_PLUGIN(AuthPlugin, "auth", "1.0.0", "", "Accounts, email one-time codes, GitHub sign-in, sessions and JWTs")
