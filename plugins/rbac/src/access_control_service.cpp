#include "access_control_service.hpp"

#include <docs/db.hpp>

#include "access_rules.hpp"
#include "grant_store.hpp"

namespace docs_rbac {

namespace {
bool signedIn(const std::optional<docs::Principal>& caller) { return caller && !caller->anonymous(); }
}  // namespace

AccessControlService::AccessControlService(docs::Registry& registry) : context_(registry.context()) {
  registry.use(projects_);
}

std::optional<bool> AccessControlService::projectIsPublic(std::int64_t projectId) {
  if (!projects_) return std::nullopt;
  auto project = projects_->find(projectId);
  if (!project) return std::nullopt;
  return project->isPublic();
}

docs::Role AccessControlService::grantedRole(std::int64_t projectId, const std::optional<docs::Principal>& caller) {
  if (!signedIn(caller)) return docs::Role::None;
  return docs_rbac::grantedRole(context_.db(), projectId, Member::of(*caller));
}

docs::Role AccessControlService::require(std::int64_t projectId, const std::optional<docs::Principal>& caller,
                                         docs::Role needed) {
  auto isPublic = projectIsPublic(projectId);
  if (!isPublic) throwIfDenied(404, needed);
  return requireKnown(projectId, *isPublic, caller, needed);
}

docs::Role AccessControlService::requireKnown(std::int64_t projectId, bool isPublic,
                                              const std::optional<docs::Principal>& caller, docs::Role needed) {
  docs::Role granted = grantedRole(projectId, caller);
  throwIfDenied(deniedStatus(true, isPublic, signedIn(caller), granted, needed), needed);
  return effectiveRole(isPublic, granted);
}

docs::Role AccessControlService::requireMember(std::int64_t projectId, const std::optional<docs::Principal>& caller,
                                               docs::Role needed) {
  auto isPublic = projectIsPublic(projectId);
  if (!isPublic) throwIfDenied(404, needed);
  docs::Role granted = grantedRole(projectId, caller);
  throwIfDenied(deniedStatus(true, *isPublic, signedIn(caller), granted, needed), needed);
  if (granted == docs::Role::None) throwIfDenied(signedIn(caller) ? 403 : 401, needed);
  return granted;
}

std::vector<std::pair<std::int64_t, docs::Role>> AccessControlService::grantsOf(const docs::Principal& caller) {
  return docs_rbac::grantsOf(context_.db(), Member::of(caller));
}

void AccessControlService::grantCreator(docs::Tx& tx, std::int64_t projectId, const docs::Principal& creator) {
  Member member = Member::of(creator);
  insertGrant(tx, projectId, member.userId, member.email, docs::Role::Admin);
}

void AccessControlService::removeProject(docs::Tx& tx, std::int64_t projectId) { deleteProjectGrants(tx, projectId); }

}  // namespace docs_rbac
