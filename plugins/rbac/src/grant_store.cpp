#include "grant_store.hpp"

#include <algorithm>
#include <charconv>

#include "emails.hpp"

namespace docs_rbac {

namespace {
// The numeric rank lets SQL pick the best of several matching grants.
constexpr const char* kRoleRank = "CASE role WHEN 'admin' THEN 3 WHEN 'write' THEN 2 ELSE 1 END";

docs::Param userParam(std::int64_t userId) { return userId > 0 ? docs::Param(userId) : docs::Param(); }

Grant grantFrom(const docs::Row& row) {
  Grant grant;
  grant.id = row.int64("id");
  grant.userId = row.isNull("user_id") ? 0 : row.int64("user_id");
  grant.email = row.text("user_email");
  grant.role = roleFromText(row.text("role"));
  return grant;
}
}  // namespace

Member Member::of(const docs::Principal& principal) {
  Member member;
  const std::string& id = principal.userId;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), value);
  if (ec == std::errc() && end == id.data() + id.size() && value > 0) member.userId = value;
  member.email = normalizeEmail(principal.email);
  return member;
}

bool Member::is(const Grant& grant) const {
  if (grant.userId != 0) return grant.userId == userId;
  return !email.empty() && grant.email == email;
}

docs::Role roleFromText(const std::string& text) { return docs::parseRole(text).value_or(docs::Role::None); }

docs::Role grantedRole(docs::Db& db, std::int64_t projectId, const Member& member) {
  auto rows = db.exec(std::string("SELECT max(") + kRoleRank +
                          ") AS rank, bool_or(user_id IS NULL) AS pending FROM rbac_grants WHERE project_id = $1"
                          " AND (user_id = $2 OR (user_id IS NULL AND user_email = $3))",
                      {projectId, userParam(member.userId), member.email});
  if (rows.empty() || rows[0].isNull("rank")) return docs::Role::None;
  // The first use of a grant made to the address claims it for the account (rare: one
  // UPDATE per invitation), so it is the account's from then on.
  if (member.userId > 0 && rows[0].boolean("pending"))
    db.exec(
        "UPDATE rbac_grants SET user_id = $1, updated_at = now()"
        " WHERE project_id = $2 AND user_id IS NULL AND user_email = $3",
        {member.userId, projectId, member.email});
  return static_cast<docs::Role>(rows[0].int64("rank"));
}

std::vector<std::pair<std::int64_t, docs::Role>> grantsOf(docs::Db& db, const Member& member) {
  // One statement: claim pending invites for this email and read every grant. The outer
  // SELECT reads the snapshot from before the claim, so it matches pending rows by email;
  // that also covers a row the user.created handler claims at the same moment.
  auto rows = db.exec(
      "WITH claimed AS (UPDATE rbac_grants SET user_id = $1, updated_at = now()"
      "   WHERE $1::bigint IS NOT NULL AND user_id IS NULL AND user_email = $2)"
      " SELECT project_id, role FROM rbac_grants WHERE user_id = $1 OR (user_id IS NULL AND user_email = $2)",
      {userParam(member.userId), member.email});
  std::vector<std::pair<std::int64_t, docs::Role>> grants;
  grants.reserve(rows.size());
  for (auto row : rows) grants.emplace_back(row.int64("project_id"), roleFromText(row.text("role")));
  return grants;
}

std::vector<Grant> listGrants(docs::Db& db, std::int64_t projectId) {
  std::vector<Grant> grants;
  for (auto row : db.exec("SELECT id, user_id, user_email, role FROM rbac_grants WHERE project_id = $1"
                          " ORDER BY user_email",
                          {projectId}))
    grants.push_back(grantFrom(row));
  return grants;
}

std::vector<Grant> lockGrants(docs::Tx& tx, std::int64_t projectId) {
  std::vector<Grant> grants;
  for (auto row : tx.exec("SELECT id, user_id, user_email, role FROM rbac_grants WHERE project_id = $1"
                          " ORDER BY id FOR UPDATE",
                          {projectId}))
    grants.push_back(grantFrom(row));
  return grants;
}

bool insertGrant(docs::Tx& tx, std::int64_t projectId, std::int64_t userId, const std::string& email, docs::Role role) {
  auto rows = tx.exec(
      "INSERT INTO rbac_grants (project_id, user_id, user_email, role) VALUES ($1, $2, $3, $4)"
      " ON CONFLICT (project_id, user_email) DO NOTHING RETURNING id",
      {projectId, userParam(userId), email, std::string(docs::roleName(role))});
  return !rows.empty();
}

void updateRole(docs::Tx& tx, std::int64_t grantId, docs::Role role) {
  tx.exec("UPDATE rbac_grants SET role = $2, updated_at = now() WHERE id = $1",
          {grantId, std::string(docs::roleName(role))});
}

void deleteGrant(docs::Tx& tx, std::int64_t grantId) { tx.exec("DELETE FROM rbac_grants WHERE id = $1", {grantId}); }

void deleteProjectGrants(docs::Tx& tx, std::int64_t projectId) {
  tx.exec("DELETE FROM rbac_grants WHERE project_id = $1", {projectId});
}

void claimInvites(docs::Db& db, std::int64_t userId, const std::string& email) {
  db.exec("UPDATE rbac_grants SET user_id = $1, updated_at = now() WHERE user_id IS NULL AND user_email = $2",
          {userId, normalizeEmail(email)});
}

void removeUserGrants(docs::Db& db, std::int64_t userId, const std::string& email) {
  db.exec("DELETE FROM rbac_grants WHERE user_id = $1 OR (user_id IS NULL AND $2 <> '' AND user_email = $2)",
          {userId, normalizeEmail(email)});
}

std::int64_t remainingInvitations(docs::Tx& tx, std::int64_t inviterId, std::int64_t perDay) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtext('rbac_invitations'), hashtext($1::text))", {inviterId});
  tx.exec("DELETE FROM rbac_invitations WHERE inviter_id = $1 AND created_at < now() - interval '1 day'", {inviterId});
  auto rows = tx.exec("SELECT count(*) AS n FROM rbac_invitations WHERE inviter_id = $1", {inviterId});
  return std::max<std::int64_t>(0, perDay - rows[0].int64("n"));
}

void recordInvitation(docs::Tx& tx, std::int64_t inviterId) {
  tx.exec("INSERT INTO rbac_invitations (inviter_id) VALUES ($1)", {inviterId});
}

}  // namespace docs_rbac
