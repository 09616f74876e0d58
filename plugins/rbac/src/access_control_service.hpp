#pragma once
// The AccessControl service other plugins ask before touching a project's objects.

#include <docs/context.hpp>
#include <docs/registry.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/projects.hpp>

namespace docs_rbac {

class AccessControlService final : public docs::AccessControl {
 public:
  // Declares the Projects service it uses (resolved before start).
  explicit AccessControlService(docs::Registry& registry);

  docs::Role grantedRole(std::int64_t projectId, const std::optional<docs::Principal>& caller) override;
  docs::Role require(std::int64_t projectId, const std::optional<docs::Principal>& caller, docs::Role needed) override;
  docs::Role requireKnown(std::int64_t projectId, bool projectIsPublic, const std::optional<docs::Principal>& caller,
                          docs::Role needed) override;
  std::vector<std::pair<std::int64_t, docs::Role>> grantsOf(const docs::Principal& caller) override;
  void grantCreator(docs::Tx& tx, std::int64_t projectId, const docs::Principal& creator) override;
  void removeProject(docs::Tx& tx, std::int64_t projectId) override;

  // Like require, but a public project's implicit read does not count: only members
  // pass (the member list is not for the whole internet). Returns the granted role.
  docs::Role requireMember(std::int64_t projectId, const std::optional<docs::Principal>& caller, docs::Role needed);

 private:
  // Whether the project exists and is public, from the projects plugin; unknown
  // (nullopt) without it. Used, not required: projects depends on rbac.
  std::optional<bool> projectIsPublic(std::int64_t projectId);

  docs::Context& context_;
  docs::ServiceRef<docs::Projects> projects_;
};

}  // namespace docs_rbac
