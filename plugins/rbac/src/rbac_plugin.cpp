// The rbac plugin: project roles (read, write, admin), the Permissions calls and the
// AccessControl service. The logic lives in docs_rbac_lib; this is the loadable shell.

#include <docs/plugin.hpp>
#include <docs/topics.hpp>

#include <memory>

#include "access_control_service.hpp"
#include "grant_store.hpp"
#include "rbac_routes.hpp"

#include "rbac_migrations.hpp"

namespace {

class RbacPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs_plugin_rbac::registerMigrations(registry);
    access_ = std::make_unique<docs_rbac::AccessControlService>(registry);
    registry.provideService<docs::AccessControl>(*access_);
    docs_rbac::addRbacRoutes(registry, *access_);
    // An invite sent before the person had an account applies from their first sign-in.
    docs::on(registry, docs::kUserCreated, [this](const docs::UserCreated& event) {
      docs_rbac::claimInvites(context_->db(), event.userId, event.email);
    });
    docs::on(registry, docs::kUserDeleted, [this](const docs::UserDeleted& event) {
      docs_rbac::removeUserGrants(context_->db(), event.userId, event.email);
    });
  }

 private:
  docs::Context* context_ = nullptr;
  std::unique_ptr<docs_rbac::AccessControlService> access_;
};

}  // namespace

DOCS_PLUGIN(RbacPlugin, "rbac", "1.0.0", "", "Project roles (read, write, admin) and the AccessControl service")
