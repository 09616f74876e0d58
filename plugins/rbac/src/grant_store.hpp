#pragma once
// The rbac_grants table. Every function is one statement unless it says otherwise.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <docs/db.hpp>
#include <docs/http.hpp>
#include <docs/services/access_control.hpp>

namespace docs_rbac {

struct Grant {
  std::int64_t id = 0;
  std::int64_t userId = 0;  // 0: no account matched yet
  std::string email;
  docs::Role role = docs::Role::None;
};

// The caller as grants see them: a numeric user id (0 if none) and a lower-case email.
struct Member {
  std::int64_t userId = 0;
  std::string email;
  static Member of(const docs::Principal& principal);
  bool is(const Grant& grant) const;
};

docs::Role roleFromText(const std::string& text);

// The best role the member holds in the project, None without a grant. Claims a grant
// made to the member's address on its first use (two statements then).
docs::Role grantedRole(docs::Db& db, std::int64_t projectId, const Member& member);
// Every project the member holds a grant in; claims grants invited by email on the way.
std::vector<std::pair<std::int64_t, docs::Role>> grantsOf(docs::Db& db, const Member& member);
std::vector<Grant> listGrants(docs::Db& db, std::int64_t projectId);
// Locks the project's grants for the rest of the transaction (serialises role changes).
std::vector<Grant> lockGrants(docs::Tx& tx, std::int64_t projectId);
// False when the email already has a grant in the project.
bool insertGrant(docs::Tx& tx, std::int64_t projectId, std::int64_t userId, const std::string& email, docs::Role role);
void updateRole(docs::Tx& tx, std::int64_t grantId, docs::Role role);
void deleteGrant(docs::Tx& tx, std::int64_t grantId);
void deleteProjectGrants(docs::Tx& tx, std::int64_t projectId);
// Fills user_id on grants that were waiting for this email (first sign-in).
void claimInvites(docs::Db& db, std::int64_t userId, const std::string& email);
// A deleted account keeps no role anywhere: its grants, and those made to its address
// that it had not claimed yet (someone who later signs up with the same email starts with
// nothing).
void removeUserGrants(docs::Db& db, std::int64_t userId, const std::string& email);
// How many more grants the inviter may make today (of `perDay` in 24 hours), under a
// transaction-scoped lock on the inviter; forgets the inviter's older ones.
std::int64_t remainingInvitations(docs::Tx& tx, std::int64_t inviterId, std::int64_t perDay);
void recordInvitation(docs::Tx& tx, std::int64_t inviterId);

}  // namespace docs_rbac
