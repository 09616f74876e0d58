#include "rbac_routes.hpp"

#include <algorithm>

#include <docs/config.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/topics.hpp>

#include <docs/support/body_fields.hpp>
#include "emails.hpp"
#include "grant_store.hpp"
#include "rbac_docs.hpp"

namespace docs_rbac {

using namespace docs::support;

namespace {

using docs::HttpError;
using docs::Json;
using docs::Role;

constexpr std::size_t kSmallBody = 16 * 1024;

Json grantJson(const Grant& grant) { return {{"user_email", grant.email}, {"role", docs::roleName(grant.role)}}; }

std::string requiredEmail(const Json& body) {
  std::string email = normalizeEmail(requiredString(body, "email"));
  if (!looksLikeEmail(email)) throw HttpError::badRequest("Invalid email", "invalid_field");
  return email;
}

Role requiredRole(const Json& body, std::string_view field) {
  auto role = docs::parseRole(requiredString(body, field));
  if (!role) throw HttpError::badRequest("'" + std::string(field) + "' must be read, write or admin", "invalid_field");
  return *role;
}

const Grant* findByEmail(const std::vector<Grant>& grants, const std::string& email) {
  auto it = std::find_if(grants.begin(), grants.end(), [&](const Grant& g) { return g.email == email; });
  return it == grants.end() ? nullptr : &*it;
}

// Re-checked on the locked rows: the caller's admin grant may have gone since require().
void requireAdminAmong(const std::vector<Grant>& grants, const Member& caller) {
  for (const auto& grant : grants)
    if (caller.is(grant) && grant.role == Role::Admin) return;
  throw HttpError::forbidden("This needs the admin role in the project");
}

void refuseSelf(const Grant& target, const Member& caller) {
  if (caller.is(target) || target.email == caller.email)
    throw HttpError::forbidden("Admins cannot change or remove themselves");
}

void keepAnAdmin(const std::vector<Grant>& grants, const Grant& target, Role newRole) {
  long admins = std::count_if(grants.begin(), grants.end(), [&](const Grant& g) {
    Role role = g.id == target.id ? newRole : g.role;
    return role == Role::Admin;
  });
  if (admins == 0) throw HttpError::conflict("A project must keep at least one admin");
}

}  // namespace

void addRbacRoutes(docs::Registry& registry, AccessControlService& access) {
  docs::Context& context = registry.context();
  registry.configKey("rbac.max_grants_per_project", "1000",
                     "Grants a project may hold, pending invitations included (a grant past it is a 409)");
  registry.configKey("rbac.invitations_per_day", "100",
                     "Grants one person may make in 24 hours, across every project (past it: 429)");
  const std::int64_t maxGrants = context.config().getInt("rbac.max_grants_per_project");
  const std::int64_t invitationsPerDay = context.config().getInt("rbac.invitations_per_day");
  docs::RouteOptions small;
  small.maxBodyBytes = kSmallBody;

  registry.route(
      docs::Method::Get, "/api/rbac/project/{id}",
      [&context, &access](docs::Request& request, docs::Response& response) {
        std::int64_t projectId = request.idParam("id");
        access.requireMember(projectId, request.principal(), Role::Read);
        Json list = Json::array();
        for (const auto& grant : listGrants(context.db(), projectId)) list.push_back(grantJson(grant));
        response.json(list);
      },
      {}, listGrantsDoc());

  registry.route(
      docs::Method::Post, "/api/rbac/project",
      [&context, &access, maxGrants, invitationsPerDay](docs::Request& request, docs::Response& response) {
        Json body = request.jsonObject();
        rejectUnknownFields(body, {"project_id", "role", "email"});
        std::int64_t projectId = requiredId(body, "project_id");
        access.require(projectId, request.principal(), Role::Admin);
        std::string email = requiredEmail(body);
        Role role = requiredRole(body, "role");
        Member caller = Member::of(*request.principal());
        context.db().transaction([&](docs::Tx& tx) {
          auto grants = lockGrants(tx, projectId);
          requireAdminAmong(grants, caller);
          if (findByEmail(grants, email)) throw HttpError::conflict(email + " already has access to this project");
          // Caps, so a project cannot be made into a mailing list of outside addresses.
          if (static_cast<std::int64_t>(grants.size()) >= maxGrants)
            throw HttpError(409, "too_many_grants",
                            "This project already has " + std::to_string(grants.size()) +
                                " members and invitations, the most it may have");
          if (remainingInvitations(tx, caller.userId, invitationsPerDay) <= 0) {
            response.setHeader("Retry-After", "3600");
            throw HttpError(429, "rate_limited",
                            "You have invited " + std::to_string(invitationsPerDay) +
                                " people in the last 24 hours, the most allowed; try again later");
          }
          if (!insertGrant(tx, projectId, 0, email, role))
            throw HttpError::conflict(email + " already has access to this project");
          recordInvitation(tx, caller.userId);
          docs::publishAfterCommit(context.events(), tx, docs::kRbacGranted, {projectId, email, role});
        });
        response.json({{"user_email", email}, {"role", docs::roleName(role)}}, 201);
      },
      small, grantDoc());

  registry.route(
      docs::Method::Patch, "/api/rbac/project",
      [&context, &access](docs::Request& request, docs::Response& response) {
        Json body = request.jsonObject();
        rejectUnknownFields(body, {"project_id", "email", "new_role"});
        std::int64_t projectId = requiredId(body, "project_id");
        access.require(projectId, request.principal(), Role::Admin);
        std::string email = requiredEmail(body);
        Role role = requiredRole(body, "new_role");
        Member caller = Member::of(*request.principal());
        context.db().transaction([&](docs::Tx& tx) {
          auto grants = lockGrants(tx, projectId);
          requireAdminAmong(grants, caller);
          const Grant* target = findByEmail(grants, email);
          if (!target) throw HttpError::notFound(email + " has no access to this project");
          refuseSelf(*target, caller);
          keepAnAdmin(grants, *target, role);
          updateRole(tx, target->id, role);
          docs::publishAfterCommit(context.events(), tx, docs::kRbacChanged, {projectId, email, role});
        });
        response.json({{"user_email", email}, {"role", docs::roleName(role)}});
      },
      small, changeGrantDoc());

  registry.route(
      docs::Method::Delete, "/api/rbac/project",
      [&context, &access](docs::Request& request, docs::Response& response) {
        Json body = request.jsonObject();
        rejectUnknownFields(body, {"project_id", "email"});
        std::int64_t projectId = requiredId(body, "project_id");
        access.require(projectId, request.principal(), Role::Admin);
        std::string email = requiredEmail(body);
        Member caller = Member::of(*request.principal());
        context.db().transaction([&](docs::Tx& tx) {
          auto grants = lockGrants(tx, projectId);
          requireAdminAmong(grants, caller);
          const Grant* target = findByEmail(grants, email);
          if (!target) throw HttpError::notFound(email + " has no access to this project");
          refuseSelf(*target, caller);
          keepAnAdmin(grants, *target, Role::None);
          deleteGrant(tx, target->id);
          docs::publishAfterCommit(context.events(), tx, docs::kRbacRevoked, {projectId, email, std::nullopt});
        });
        response.json({{"user_email", email}, {"removed", true}});
      },
      small, revokeDoc());
}

}  // namespace docs_rbac
