// The Permissions calls: invites, self-protection, the last admin, validation.
#include <chrono>
#include <thread>

#include "rest_fixture.hpp"

using namespace docs::rest_test;

namespace {
class Rbac : public RestTest {
 protected:
  void SetUp() override {
    startServer();
    alice_ = signIn("alice@example.com");
    projectId_ = createProject(alice_, "Secret", true)["id"];
  }
  HttpResponse add(const json& body, const Headers& who) { return call("POST", "/api/rbac/project", body, who); }
  HttpResponse change(const std::string& email, const std::string& role, const Headers& who) {
    return call("PATCH", "/api/rbac/project", json{{"project_id", projectId_}, {"email", email}, {"new_role", role}},
                who);
  }
  HttpResponse removeUser(const std::string& email, const Headers& who) {
    return call("DELETE", "/api/rbac/project", json{{"project_id", projectId_}, {"email", email}}, who);
  }
  json members() { return parse(call("GET", "/api/rbac/project/" + std::to_string(projectId_), "", as(alice_))); }

  docs::test::SignedIn alice_;
  std::int64_t projectId_ = 0;
};
}  // namespace

TEST_F(Rbac, CreatorIsAdminAndListShape) {
  EXPECT_EQ(members(), json::parse(R"([{"user_email": "alice@example.com", "role": "admin"}])"));
  grant(alice_, projectId_, "Zed@Example.COM", "read");
  auto list = members();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1], json({{"user_email", "zed@example.com"}, {"role", "read"}}));
}

TEST_F(Rbac, InviteBeforeTheAccountExistsAppliesAtFirstSignIn) {
  grant(alice_, projectId_, "zoe@example.com", "write");
  auto zoe = signIn("zoe@example.com");
  auto project = call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(zoe));
  ASSERT_EQ(project.status, 200) << project.body;
  EXPECT_EQ(parse(project)["role"], "write");
  auto list = parse(call("GET", "/api/projects", "", as(zoe)));
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["id"], projectId_);
  EXPECT_EQ(call("PATCH", "/api/project/" + std::to_string(projectId_), json{{"name", "Zoe was here"}}, as(zoe)).status,
            200);
  // The grant is now tied to the account.
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'zoe@example.com' AND user_id IS NOT NULL"), "1");
}

// During a rolling upgrade a node of the previous release announces a new account with
// user_id as a string (through NOTIFY, like any node): the invite still applies here.
TEST_F(Rbac, AnInviteAppliesFromTheUserCreatedOfANodeOfThePreviousRelease) {
  grant(alice_, projectId_, "olga@example.com", "write");
  // The account row as that node's auth made it; its event follows.
  std::string userId = sql("INSERT INTO auth_users (email) VALUES ('olga@example.com') RETURNING id");
  json event = {{"node", "previous-release"},
                {"topic", "user.created"},
                {"payload", {{"user_id", userId}, {"email", "olga@example.com"}}}};
  sql("SELECT pg_notify('docs_events', '" + event.dump() + "')");
  const std::string claimed =
      "SELECT count(*) FROM rbac_grants WHERE user_email = 'olga@example.com' AND user_id = " + userId;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (sql(claimed) != "1" && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(sql(claimed), "1") << "the invite was not tied to the account";
}

TEST_F(Rbac, AdminsCannotChangeOrRemoveThemselves) {
  expectError(change("alice@example.com", "read", as(alice_)), 403, "Admins cannot change or remove themselves");
  expectError(removeUser("ALICE@example.com", as(alice_)), 403, "Admins cannot change or remove themselves");
  EXPECT_EQ(members()[0]["role"], "admin");
}

TEST_F(Rbac, OnlyAdminsManageUsers) {
  auto bob = signIn("bob@example.com");
  grant(alice_, projectId_, bob.email, "write");
  expectError(add(json{{"project_id", projectId_}, {"email", "x@example.com"}, {"role", "read"}}, as(bob)), 403);
  expectError(change("alice@example.com", "read", as(bob)), 403);
  expectError(removeUser("alice@example.com", as(bob)), 403);
  // Promoted, bob can demote alice; the project still has an admin (bob).
  ASSERT_EQ(change(bob.email, "admin", as(alice_)).status, 200);
  ASSERT_EQ(change("alice@example.com", "write", as(bob)).status, 200);
  expectError(change(bob.email, "read", as(alice_)), 403);
}

TEST_F(Rbac, ConcurrentMutualDemotionKeepsAnAdmin) {
  auto bob = signIn("bob@example.com");
  grant(alice_, projectId_, bob.email, "read");
  for (int round = 0; round < 5; ++round) {
    ASSERT_EQ(change(bob.email, "admin", as(alice_)).status, 200);
    HttpResponse fromAlice, fromBob;
    std::thread a([&] { fromAlice = change(bob.email, "read", as(alice_)); });
    std::thread b([&] { fromBob = change("alice@example.com", "read", as(bob)); });
    a.join();
    b.join();
    int admins = 0;
    for (const auto& m : parse(call("GET", "/api/rbac/project/" + std::to_string(projectId_), "",
                                    as(fromAlice.status == 200 ? alice_ : bob))))
      admins += m["role"] == "admin";
    EXPECT_EQ(admins, 1) << fromAlice.body << " / " << fromBob.body;
    EXPECT_TRUE((fromAlice.status == 200) != (fromBob.status == 200)) << fromAlice.status << " " << fromBob.status;
    if (fromBob.status == 200) {
      // Put alice back in charge for the next round.
      ASSERT_EQ(change("alice@example.com", "admin", as(bob)).status, 200);
      ASSERT_EQ(change(bob.email, "read", as(alice_)).status, 200);
    }
  }
}

TEST_F(Rbac, Validation) {
  auto admin = as(alice_);
  expectError(add(json{{"project_id", projectId_}, {"email", "not-an-email"}, {"role", "read"}}, admin), 400,
              "Invalid email");
  expectError(add(json{{"project_id", projectId_}, {"email", "a@b.co"}, {"role", "owner"}}, admin), 400,
              "'role' must be read, write or admin");
  expectError(add(json{{"project_id", projectId_}, {"email", "a@b.co"}}, admin), 400, "'role' is required");
  expectError(add(json{{"email", "a@b.co"}, {"role", "read"}}, admin), 400, "'project_id' is required");
  expectError(add(json{{"project_id", "abc"}, {"email", "a@b.co"}, {"role", "read"}}, admin), 400,
              "'project_id' must be a positive integer");
  expectError(add(json{{"project_id", -4}, {"email", "a@b.co"}, {"role", "read"}}, admin), 400);
  expectError(add(json{{"project_id", true}, {"email", "a@b.co"}, {"role", "read"}}, admin), 400);
  expectError(add(json{{"project_id", projectId_}, {"email", 7}, {"role", "read"}}, admin), 400,
              "'email' must be a string");
  expectError(add(json{{"project_id", projectId_}, {"email", "a@b.co"}, {"role", "read"}, {"admin", true}}, admin), 400,
              "Unknown field 'admin'");
  expectError(add(json{{"project_id", 99999999}, {"email", "a@b.co"}, {"role", "read"}}, admin), 404);
  ASSERT_EQ(add(json{{"project_id", std::to_string(projectId_)}, {"email", "a@b.co"}, {"role", "read"}}, admin).status,
            201);
  expectError(add(json{{"project_id", projectId_}, {"email", "A@B.co"}, {"role", "write"}}, admin), 409,
              "a@b.co already has access to this project");
  expectError(change("nobody@example.com", "read", admin), 404, "nobody@example.com has no access to this project");
  expectError(removeUser("nobody@example.com", admin), 404);
  expectError(call("GET", "/api/rbac/project/abc", "", admin), 400);
  expectError(call("GET", "/api/rbac/project/-1", "", admin), 400);
  expectError(call("GET", "/api/rbac/project/99999999999999999999", "", admin), 400);
  expectError(call("POST", "/api/rbac/project", "[1,2]", admin), 400);
}

// A deleted account keeps no grant: not in the member list, and someone who later signs
// up with the same address starts with nothing.
TEST_F(Rbac, ADeletedAccountsGrantsGoWithIt) {
  grant(alice_, projectId_, "zoe@example.com", "write");
  auto zoe = signIn("zoe@example.com");
  ASSERT_EQ(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(zoe)).status, 200);
  ASSERT_EQ(call("POST", "/api/auth/delete-user", json::object(), as(zoe)).status,
            403);  // a session alone is not enough
  auto deleted = docs::test::deleteAccount(*docsd_, zoe);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  for (int i = 0; i < 300 && members().size() != 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(members(), json::parse(R"([{"user_email": "alice@example.com", "role": "admin"}])"));
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'zoe@example.com'"), "0");
  auto again = signIn("zoe@example.com");
  EXPECT_EQ(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(again)).status, 404);
}

// A grant made to the address of an account that never used it (user_id still empty) goes
// with the account too: the next sign-up with that address does not inherit it.
TEST_F(Rbac, AnUnclaimedGrantToADeletedAccountsAddressGoesWithIt) {
  auto zoe = signIn("zoe@example.com");                   // the account exists first,
  grant(alice_, projectId_, "zoe@example.com", "write");  // then the grant, never used
  ASSERT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'zoe@example.com' AND user_id IS NULL"), "1");
  auto deleted = docs::test::deleteAccount(*docsd_, zoe);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  for (int i = 0; i < 300 && members().size() != 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(members(), json::parse(R"([{"user_email": "alice@example.com", "role": "admin"}])"));
  auto again = signIn("zoe@example.com");
  EXPECT_EQ(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(again)).status, 404);
}

// The first use of a grant made to an existing account's address ties it to the account.
TEST_F(Rbac, TheFirstUseOfAGrantClaimsIt) {
  auto zoe = signIn("zoe@example.com");
  grant(alice_, projectId_, "zoe@example.com", "read");
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'zoe@example.com' AND user_id IS NULL"), "1");
  ASSERT_EQ(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(zoe)).status, 200);
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'zoe@example.com' AND user_id IS NOT NULL"), "1");
}

namespace {
class RbacCaps : public Rbac {
 protected:
  void SetUp() override {
    startServer({{"DOCS_RBAC_MAX_GRANTS_PER_PROJECT", "4"}, {"DOCS_RBAC_INVITATIONS_PER_DAY", "5"}});
    alice_ = signIn("alice@example.com");
    projectId_ = createProject(alice_, "Secret", true)["id"];
  }
  HttpResponse invite(const std::string& email, std::int64_t project = 0) {
    return add(json{{"project_id", project ? project : projectId_}, {"email", email}, {"role", "read"}}, as(alice_));
  }
};
}  // namespace

// A project holds at most rbac.max_grants_per_project grants (the creator's included), and
// one person makes at most rbac.invitations_per_day in 24 hours across projects: 300
// outside addresses can no longer be granted in a second.
TEST_F(RbacCaps, GrantsPerProjectAndInvitationsPerDayAreCapped) {
  for (int i = 1; i <= 3; ++i) ASSERT_EQ(invite("guest" + std::to_string(i) + "@outside.example").status, 201);
  auto full = invite("guest4@outside.example");
  expectError(full, 409);
  EXPECT_EQ(parse(full)["error"]["code"], "too_many_grants");
  EXPECT_EQ(members().size(), 4u);
  // Removing one makes room again; the removal does not give back the day's invitation.
  ASSERT_EQ(removeUser("guest1@outside.example", as(alice_)).status, 200);
  ASSERT_EQ(invite("guest4@outside.example").status, 201);  // the 4th invitation today
  std::int64_t other = createProject(alice_, "Other", true)["id"];
  ASSERT_EQ(invite("guest5@outside.example", other).status, 201);  // the 5th, in another project
  auto limited = invite("guest6@outside.example", other);
  expectError(limited, 429);
  EXPECT_EQ(parse(limited)["error"]["code"], "rate_limited");
  EXPECT_FALSE(limited.header("retry-after").empty());
  EXPECT_EQ(sql("SELECT count(*) FROM rbac_grants WHERE user_email = 'guest6@outside.example'"), "0");
  // A day later the allowance is back.
  sql("UPDATE rbac_invitations SET created_at = now() - interval '25 hours'");
  EXPECT_EQ(invite("guest6@outside.example", other).status, 201);
}
