// The auth plugin module: declares keys, migrations, routes, tasks and the
// Authenticator and LinkedAccounts services; the parts live in the docs_auth library.
#include <docs/plugin.hpp>
#include <docs/services/linked_accounts.hpp>

#include <algorithm>
#include <charconv>
#include <memory>
#include <stdexcept>

#include "auth_core.hpp"
#include "mail_job.hpp"
#include "routes.hpp"
#include "token_routes.hpp"

#include "auth_migrations.hpp"

namespace {

// Forwards to the AuthCore made at start; the service must exist at configure time.
class LateAuthenticator final : public docs::Authenticator {
 public:
  explicit LateAuthenticator(std::unique_ptr<docs::auth::AuthCore>& core) : core_(core) {}
  std::optional<docs::Principal> authenticate(const docs::Request& request) override {
    return core_ ? core_->authenticate(request) : std::nullopt;
  }
  std::optional<docs::Principal> authenticateToken(std::string_view token) override {
    return core_ ? core_->authenticateToken(token) : std::nullopt;
  }

 private:
  std::unique_ptr<docs::auth::AuthCore>& core_;
};

// The linked sign-in accounts, for plugins that act as a person on GitHub.
class LateLinkedAccounts final : public docs::LinkedAccounts {
 public:
  explicit LateLinkedAccounts(std::unique_ptr<docs::auth::AuthCore>& core) : core_(core) {}
  std::optional<Account> linkedAccount(std::string_view userId, std::string_view provider) override {
    if (!core_) return std::nullopt;
    std::int64_t id = 0;
    auto [end, error] = std::from_chars(userId.data(), userId.data() + userId.size(), id);
    if (error != std::errc() || end != userId.data() + userId.size() || id <= 0) return std::nullopt;
    auto linked = core_->accounts().linkedAccount(id, std::string(provider));
    if (!linked) return std::nullopt;
    return Account{linked->first, linked->second};
  }

 private:
  std::unique_ptr<docs::auth::AuthCore>& core_;
};

class AuthPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs::auth::AuthSettings::declareKeys(registry);
    settings_ = docs::auth::AuthSettings::read(context_->config());
    docs_plugin_auth::registerMigrations(registry);
    auto coreOf = [this]() -> docs::auth::AuthCore& {
      if (!core_) throw std::runtime_error("auth is not started");
      return *core_;
    };
    docs::auth::registerRoutes(registry, coreOf);
    docs::auth::registerTokenRoutes(registry, coreOf);
    registry.provideService<docs::Authenticator>(authenticator_);
    registry.provideService<docs::LinkedAccounts>(linkedAccounts_);
    // Mail other plugins queue (comments: mentions), by the sign-in codes' path.
    registry.jobHandler(docs::auth::kSendMailJob, [this](docs::JobContext& job) {
      if (!core_) throw std::runtime_error("auth is not started");
      docs::auth::runSendMailJob(core_->mailer(), job);
    });

    registry.configKey("auth.maintenance_interval_seconds", "3600", "How often keys are rotated when due and spent codes and sessions are dropped.");
    docs::PeriodicOptions hourly;
    hourly.interval = std::chrono::seconds(std::max<std::int64_t>(1, context_->config().getInt("auth.maintenance_interval_seconds")));
    registry.periodic("rotate_keys", hourly, [this] {
      if (core_) core_->keys().rotate();
    });
    registry.periodic("clean_up", hourly, [this] {
      if (!core_) return;
      core_->codes().cleanUp();
      core_->limits().cleanUp();
      context_->db().exec("DELETE FROM auth_sessions WHERE expires_at < now() - interval '30 days'"
                          " OR revoked_at < now() - interval '30 days'");
    });
  }

  void start() override { core_ = std::make_unique<docs::auth::AuthCore>(*context_, settings_); }

 private:
  docs::Context* context_ = nullptr;
  docs::auth::AuthSettings settings_;
  std::unique_ptr<docs::auth::AuthCore> core_;
  LateAuthenticator authenticator_{core_};
  LateLinkedAccounts linkedAccounts_{core_};
};

}  // namespace

DOCS_PLUGIN(AuthPlugin, "auth", "1.0.0", "", "Accounts, email one-time codes, GitHub sign-in, sessions and JWTs")
