// The rbac plugin: project roles (read, write, admin), the Permissions calls and the
// AccessControl service. The logic lives in docs_rbac_lib; this is the loadable shell.

#include <docs/plugin.hpp>

#include <charconv>
#include <memory>

#include "access_control_service.hpp"
#include "grant_store.hpp"
#include "rbac_routes.hpp"

#include "rbac_migrations.hpp"

namespace {

std::int64_t userIdFrom(const docs::Json& value) {
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    std::int64_t id = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec == std::errc() && end == text.data() + text.size()) return id;
  }
  return 0;
}

class RbacPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs_plugin_rbac::registerMigrations(registry);
    access_ = std::make_unique<docs_rbac::AccessControlService>(registry);
    registry.provideService<docs::AccessControl>(*access_);
    docs_rbac::addRbacRoutes(registry, *access_);
    // An invite sent before the person had an account applies from their first sign-in.
    registry.subscribe("user.created", [this](const docs::Json& payload) {
      std::int64_t userId = userIdFrom(payload.value("user_id", docs::Json()));
      std::string email = payload.value("email", "");
      if (userId > 0 && !email.empty()) docs_rbac::claimInvites(context_->db(), userId, email);
    });
    registry.subscribe("user.deleted", [this](const docs::Json& payload) {
      std::int64_t userId = userIdFrom(payload.value("user_id", docs::Json()));
      if (userId > 0) docs_rbac::removeUserGrants(context_->db(), userId);
    });
  }

 private:
  docs::Context* context_ = nullptr;
  std::unique_ptr<docs_rbac::AccessControlService> access_;
};

}  // namespace

DOCS_PLUGIN(RbacPlugin, "rbac", "1.0.0", "", "Project roles (read, write, admin) and the AccessControl service")
