#pragma once
// The Permissions calls: list, add, change and remove a project's users.

#include <docs/registry.hpp>

#include "access_control_service.hpp"

namespace docs_rbac {

void addRbacRoutes(docs::Registry& registry, AccessControlService& access);

}  // namespace docs_rbac
