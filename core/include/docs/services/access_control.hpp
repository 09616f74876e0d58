#pragma once
// Who may do what in a project. Implemented by the rbac plugin; projects, pages and later
// plugins ask it before touching a project's objects.
//
// The answer for a caller who may not even read the project is 404, never 403, so a
// private project's existence does not leak. Otherwise an anonymous caller who needs more
// gets 401 and a signed-in one 403.

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "docs/http.hpp"

namespace docs {

class Tx;

// Ordered: a higher role can do everything a lower one can.
enum class Role : std::uint8_t { None = 0, Read = 1, Write = 2, Admin = 3 };

inline std::string_view roleName(Role role) {
  switch (role) {
    case Role::Read: return "read";
    case Role::Write: return "write";
    case Role::Admin: return "admin";
    case Role::None: break;
  }
  return "none";
}

inline std::optional<Role> parseRole(std::string_view name) {
  if (name == "read") return Role::Read;
  if (name == "write") return Role::Write;
  if (name == "admin") return Role::Admin;
  return std::nullopt;
}

class AccessControl {
 public:
  static constexpr const char* kServiceId = "docs.access_control/1";
  virtual ~AccessControl();

  // The role granted to the caller in the project (None for anonymous or no grant);
  // a public project's implicit read access is not included.
  virtual Role grantedRole(std::int64_t projectId, const std::optional<Principal>& caller) = 0;

  // Throws HttpError (404 / 401 / 403, see above) unless the caller has at least `needed`
  // in the project. Returns the caller's effective role (public projects count as Read).
  // The project's existence and visibility come from the Projects service.
  virtual Role require(std::int64_t projectId, const std::optional<Principal>& caller, Role needed) = 0;
  // The same when the caller already knows the project exists and its visibility.
  virtual Role requireKnown(std::int64_t projectId, bool projectIsPublic, const std::optional<Principal>& caller,
                            Role needed) = 0;

  // Every project the caller was granted a role in, with that role (one query).
  virtual std::vector<std::pair<std::int64_t, Role>> grantsOf(const Principal& caller) = 0;

  // Makes the creator the project's first admin, inside the creating transaction.
  virtual void grantCreator(Tx& tx, std::int64_t projectId, const Principal& creator) = 0;
  // Drops every grant of a deleted project, inside the deleting transaction.
  virtual void removeProject(Tx& tx, std::int64_t projectId) = 0;
};

}  // namespace docs
