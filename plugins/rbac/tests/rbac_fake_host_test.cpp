// The built rbac.so in the SDK's fake host, no docsd and no database: the grant route's
// validation and access answers, which come before any database work, the AccessControl
// service it provides, and its user.created handler's filter.
#include <gtest/gtest.h>

#include <docs/services/access_control.hpp>
#include <docs/services/projects.hpp>
#include <docs/testing/fake_host.hpp>

#include <map>

using docs::Json;
using docs::Method;

namespace {

// The projects plugin as rbac sees it: the projects the test names, nothing else.
class KnownProjects final : public docs::Projects {
 public:
  std::map<std::int64_t, docs::ProjectSummary> projects;

  std::optional<docs::ProjectSummary> find(std::int64_t projectId) override {
    auto found = projects.find(projectId);
    if (found == projects.end()) return std::nullopt;
    return found->second;
  }
  bool setStatus(std::int64_t, docs::ProjectStatus) override { return false; }
  void setDefaultPage(docs::Tx&, std::int64_t, std::int64_t) override {}
  std::string uploadedArchive(std::int64_t) override { return {}; }
  bool holdProject(docs::Tx&, std::int64_t) override { return false; }
  std::vector<std::int64_t> uploadsInStatus(docs::ProjectStatus, int) override { return {}; }
  bool setRagStatus(std::int64_t, std::string_view) override { return false; }
  bool setCommitHash(std::int64_t, std::string_view) override { return false; }
  std::optional<docs::ProjectSummary> findByGitUrl(std::string_view) override { return std::nullopt; }
  std::vector<std::int64_t> publicProjectIds(int) override { return {}; }
  bool setInstallation(std::int64_t, std::int64_t) override { return false; }
  bool setInstallation(std::int64_t, std::int64_t, std::int64_t) override { return false; }
};

docs::ProjectSummary project(std::int64_t id, std::string visibility) {
  docs::ProjectSummary summary;
  summary.id = id;
  summary.visibility = std::move(visibility);
  return summary;
}

class RbacFakeHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    projects_.projects = {{1, project(1, "private")}, {2, project(2, "public")}};
    host_.registry().provide<docs::Projects>(projects_);
    host_.run(*plugin_.plugin);
  }
  docs::testing::Answer grant(const Json& body, std::optional<docs::Principal> caller = std::nullopt) {
    return host_.registry().call(Method::Post, "/api/rbac/project", body.dump(), {std::move(caller)});
  }

  KnownProjects projects_;
  docs::testing::LoadedPlugin plugin_ = docs::testing::loadPlugin(DOCS_RBAC_PLUGIN);
  docs::testing::FakeHost host_{"rbac"};
};

TEST_F(RbacFakeHostTest, UsesProjectsAndProvidesAccessControl) {
  ASSERT_EQ(host_.registry().needs().size(), 1u);
  EXPECT_EQ(host_.registry().needs()[0].id, docs::Projects::kServiceId);
  EXPECT_EQ(host_.registry().needs()[0].need, docs::ServiceNeed::Optional);
  EXPECT_NE(host_.registry().providedService<docs::AccessControl>(), nullptr);
}

TEST_F(RbacFakeHostTest, AGrantWithAFieldItDoesNotKnowIsRefusedFirst) {
  auto answer = grant({{"project_id", 1}, {"email", "a@example.com"}, {"role", "read"}, {"colour", "red"}});
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.errorCode(), "invalid_field");
  auto noProject = grant({{"email", "a@example.com"}, {"role", "read"}});
  EXPECT_EQ(noProject.status, 400) << noProject.body;
}

TEST_F(RbacFakeHostTest, WhoMayNotGrantIsToldSoBeforeTheDatabaseIsAsked) {
  // No such project, and a private one to an anonymous caller: both are not found.
  EXPECT_EQ(grant({{"project_id", 9}, {"email", "a@example.com"}, {"role", "read"}}).status, 404);
  EXPECT_EQ(grant({{"project_id", 1}, {"email", "a@example.com"}, {"role", "read"}}).status, 404);
  // A public project is readable by anyone, so an anonymous caller is asked to sign in.
  EXPECT_EQ(grant({{"project_id", 2}, {"email", "a@example.com"}, {"role", "read"}}).status, 401);
  // A signed-in caller's grants are in the database, which this host was not given.
  docs::Principal ada;
  ada.userId = "7";
  ada.email = "ada@example.com";
  auto signedIn = grant({{"project_id", 2}, {"email", "a@example.com"}, {"role", "read"}}, ada);
  EXPECT_EQ(signedIn.status, 500);
  EXPECT_NE(signedIn.failure.find("useDatabase"), std::string::npos) << signedIn.failure;
}

TEST_F(RbacFakeHostTest, TheServiceAnswersNotFoundForAProjectNobodyKnows) {
  auto* access = host_.registry().providedService<docs::AccessControl>();
  ASSERT_NE(access, nullptr);
  try {
    access->require(9, std::nullopt, docs::Role::Read);
    FAIL() << "an unknown project must be refused";
  } catch (const docs::HttpError& error) {
    EXPECT_EQ(error.status(), 404);
  }
  // Anyone may read a public project; nobody signed in has a role to look up.
  EXPECT_EQ(access->require(2, std::nullopt, docs::Role::Read), docs::Role::Read);
}

TEST_F(RbacFakeHostTest, UserCreatedWithoutAUsableIdOrEmailIsIgnored) {
  EXPECT_EQ(host_.registry().deliver("user.created", {{"user_id", "x"}, {"email", "a@example.com"}}), 1u);
  EXPECT_EQ(host_.registry().deliver("user.created", {{"user_id", 5}}), 1u);
  // A usable one claims the invites, in the database.
  EXPECT_THROW(host_.registry().deliver("user.created", {{"user_id", "5"}, {"email", "a@example.com"}}),
               std::logic_error);
}

}  // namespace
