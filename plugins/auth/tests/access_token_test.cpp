// Personal access tokens in the real docsd: created once and stored as a digest, listed,
// used as a bearer wherever a JWT is, read-only unless scope write, refused for token
// management and account deletion, and the abuse cases: revoked, expired, unknown and
// malformed tokens are 401 JSON errors, a read-only token cannot write, a deleted
// account's tokens stop, and no token ever reaches the log.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "test_support.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using nlohmann::json;

namespace {

using Headers = std::map<std::string, std::string>;

class AccessTokens : public ::testing::Test {
 protected:
  void SetUp() override {
    Docsd::Options options;
    options.env = {{"DOCS_LOG_LEVEL", "debug"}};
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
  }
  HttpResponse call(const std::string& method, const std::string& path, const Headers& auth,
                    const json& body = nullptr) {
    Headers headers = auth;
    if (!body.is_null()) headers["Content-Type"] = "application/json";
    return httpRequest(docsd_->port(), method, path, body.is_null() ? "" : body.dump(), headers);
  }
  static Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }
  static json parsed(const HttpResponse& r) { return json::parse(r.body, nullptr, false); }
  static std::string errorCode(const HttpResponse& r) {
    auto b = parsed(r);
    return b.is_object() && b.contains("error") && b["error"].is_object() ? b["error"].value("code", "") : "";
  }
  // A new token of alice's; its JSON answer.
  json create(const json& request, const Headers& auth = {}) {
    auto created = call("POST", "/api/tokens", auth.empty() ? alice_.bearer() : auth, request);
    EXPECT_EQ(created.status, 201) << created.body;
    return parsed(created);
  }
  std::string sql(const std::string& statement) { return docs::test::sqlValue(database_.url(), statement); }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
  docs::test::SignedIn alice_;
};

TEST_F(AccessTokens, AreShownOnceStoredAsDigestsListedAndActAsTheirOwner) {
  json created = create({{"name", "ci runner"}, {"scope", "write"}, {"expires_in_days", 30}});
  std::string token = created.value("token", "");
  EXPECT_TRUE(std::regex_match(token, std::regex("^docs_pat_[A-Za-z0-9_-]{43}$"))) << token;
  EXPECT_EQ(created["name"], "ci runner");
  EXPECT_EQ(created["scope"], "write");
  EXPECT_TRUE(created["expiresAt"].is_string());
  EXPECT_TRUE(created["lastUsedAt"].is_null());
  // Only the SHA-256 is stored: the table never holds the value.
  EXPECT_EQ(sql("SELECT count(*) FROM auth_access_tokens WHERE token_hash = encode(sha256('" + token + "'), 'hex')"),
            "1");
  EXPECT_EQ(sql("SELECT count(*) FROM auth_access_tokens t WHERE position('" + token.substr(9) + "' IN t::text) > 0"),
            "0");

  auto listed = call("GET", "/api/tokens", alice_.bearer());
  ASSERT_EQ(listed.status, 200) << listed.body;
  auto tokens = parsed(listed)["tokens"];
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0]["id"], created["id"]);
  EXPECT_FALSE(tokens[0].contains("token")) << "the value is shown only at creation";
  EXPECT_EQ(listed.body.find(token.substr(9)), std::string::npos);

  // The owner, with the owner's roles, wherever a JWT works.
  auto session = call("GET", "/api/auth/get-session", bearer(token));
  ASSERT_EQ(session.status, 200) << session.body;
  EXPECT_EQ(parsed(session)["user"]["email"], "alice@example.com");
  EXPECT_EQ(session.header("set-auth-jwt"), "") << "a token never becomes a session's JWT";
  auto project = call("POST", "/api/project", bearer(token), {{"name", "Scripted"}, {"is_private", true}});
  ASSERT_EQ(project.status, 201) << project.body;
  auto projects = call("GET", "/api/projects", bearer(token));
  ASSERT_EQ(projects.status, 200) << projects.body;
  EXPECT_NE(projects.body.find("Scripted"), std::string::npos);

  // Use is noted, at most once a minute: a second use leaves the time as it was.
  std::string used = sql("SELECT last_used_at FROM auth_access_tokens");
  EXPECT_FALSE(used.empty());
  ASSERT_EQ(call("GET", "/api/projects", bearer(token)).status, 200);
  EXPECT_EQ(sql("SELECT last_used_at FROM auth_access_tokens"), used);
  EXPECT_TRUE(parsed(call("GET", "/api/tokens", alice_.bearer()))["tokens"][0]["lastUsedAt"].is_string());

  // A stranger's token never reaches alice's private project; bob cannot revoke hers.
  auto bob = docs::test::signInByEmail(*docsd_, "bob@example.com");
  std::string bobToken = create({{"name", "bob"}}, bob.bearer())["token"];
  auto id = std::to_string(parsed(project)["id"].get<std::int64_t>());
  EXPECT_EQ(call("GET", "/api/project?projectId=" + id, bearer(bobToken)).status, 404);
  EXPECT_EQ(call("GET", "/api/project?projectId=" + id, bearer(token)).status, 200);
  EXPECT_EQ(call("DELETE", "/api/tokens/" + created["id"].get<std::string>(), bob.bearer()).status, 404);
  EXPECT_EQ(call("GET", "/api/projects", bearer(token)).status, 200);
}

TEST_F(AccessTokens, ReadOnlyUnlessScopeWrite) {
  json created = create({{"name", "reader"}});
  EXPECT_EQ(created["scope"], "read");
  EXPECT_TRUE(created["expiresAt"].is_null());
  std::string token = created["token"];
  EXPECT_EQ(call("GET", "/api/projects", bearer(token)).status, 200);
  EXPECT_EQ(call("HEAD", "/api/projects", bearer(token)).status, 200);
  auto refused = call("POST", "/api/project", bearer(token), {{"name", "Nope"}});
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_EQ(errorCode(refused), "read_only_token");
  EXPECT_EQ(sql("SELECT count(*) FROM projects"), "0");
  // A project alice made with her session stays hers to change, not the token's.
  auto project = call("POST", "/api/project", alice_.bearer(), {{"name", "Mine"}});
  ASSERT_EQ(project.status, 201);
  auto id = std::to_string(parsed(project)["id"].get<std::int64_t>());
  EXPECT_EQ(call("PATCH", "/api/project/" + id, bearer(token), {{"name", "Renamed"}}).status, 403);
  EXPECT_EQ(call("DELETE", "/api/project/" + id, bearer(token)).status, 403);
  EXPECT_EQ(call("GET", "/api/project?projectId=" + id, bearer(token)).status, 200);
  EXPECT_EQ(sql("SELECT name FROM projects WHERE id = " + id), "Mine");
}

TEST_F(AccessTokens, CannotManageTokensMintJwtsOrDeleteTheAccount) {
  std::string token = create({{"name", "writer"}, {"scope", "write"}})["token"];
  std::string id = parsed(call("GET", "/api/tokens", alice_.bearer()))["tokens"][0]["id"];
  for (const auto& [method, path] :
       std::vector<std::pair<std::string, std::string>>{{"POST", "/api/tokens"},
                                                        {"GET", "/api/tokens"},
                                                        {"DELETE", "/api/tokens/" + id},
                                                        {"GET", "/api/auth/token"},
                                                        {"POST", "/api/auth/delete-user/send-code"},
                                                        {"POST", "/api/auth/delete-user"}}) {
    auto refused = call(method, path, bearer(token), method == "POST" ? json{{"name", "x"}} : json());
    EXPECT_EQ(refused.status, 403) << method << " " << path << ": " << refused.body;
    EXPECT_EQ(errorCode(refused), "token_not_allowed") << method << " " << path;
  }
  EXPECT_EQ(sql("SELECT count(*) FROM auth_access_tokens"), "1");
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users"), "1");
  // Signed out: 401.
  EXPECT_EQ(call("GET", "/api/tokens", {}).status, 401);
  EXPECT_EQ(call("POST", "/api/tokens", {}, {{"name", "x"}}).status, 401);
}

TEST_F(AccessTokens, RevokedExpiredUnknownAndMalformedTokensAre401) {
  json revoked = create({{"name", "revoked"}});
  json expired = create({{"name", "expired"}, {"expires_in_days", 1}});
  ASSERT_EQ(call("GET", "/api/projects", bearer(revoked["token"])).status, 200);
  ASSERT_EQ(call("GET", "/api/projects", bearer(expired["token"])).status, 200);
  auto gone = call("DELETE", "/api/tokens/" + revoked["id"].get<std::string>(), alice_.bearer());
  EXPECT_EQ(gone.status, 204) << gone.body;
  EXPECT_EQ(call("DELETE", "/api/tokens/" + revoked["id"].get<std::string>(), alice_.bearer()).status, 404);
  sql("UPDATE auth_access_tokens SET expires_at = now() - interval '1 second' WHERE name = 'expired'");
  std::string unknown = "docs_pat_" + std::string(43, 'A');
  for (const std::string& token :
       {revoked["token"].get<std::string>(), expired["token"].get<std::string>(), unknown, std::string("docs_pat_"),
        std::string("docs_pat_short"), "docs_pat_" + std::string(42, 'A') + "!", "docs_pat_" + std::string(44, 'A')}) {
    for (const char* path : {"/api/projects", "/api/auth/get-session"}) {
      auto refused = call("GET", path, bearer(token));
      EXPECT_EQ(refused.status, 401) << token << " " << path << ": " << refused.body;
      EXPECT_EQ(errorCode(refused), "invalid_token") << token;
      EXPECT_TRUE(parsed(refused)["error"].contains("request_id"));
    }
  }
  // The listing drops the revoked one.
  auto tokens = parsed(call("GET", "/api/tokens", alice_.bearer()))["tokens"];
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0]["name"], "expired");
}

TEST_F(AccessTokens, ValidateWhatTheyAreGiven) {
  for (const json& bad : {json{{"scope", "read"}}, json{{"name", "   "}}, json{{"name", std::string(101, 'n')}},
                          json{{"name", "x"}, {"expires_in_days", 0}}, json{{"name", "x"}, {"expires_in_days", 3651}},
                          json{{"name", "x"}, {"expires_in_days", "7"}}, json{{"name", "x"}, {"scope", "admin"}},
                          json{{"name", "x"}, {"owner", "bob"}}, json::array()}) {
    auto refused = call("POST", "/api/tokens", alice_.bearer(), bad);
    EXPECT_EQ(refused.status, 400) << bad.dump() << ": " << refused.body;
  }
  EXPECT_EQ(sql("SELECT count(*) FROM auth_access_tokens"), "0");
  EXPECT_EQ(call("DELETE", "/api/tokens/abc", alice_.bearer()).status, 400);
}

TEST_F(AccessTokens, DeletingTheAccountEndsItsTokens) {
  std::string token = create({{"name", "doomed"}, {"scope", "write"}})["token"];
  ASSERT_EQ(call("GET", "/api/projects", bearer(token)).status, 200);
  auto deleted = docs::test::deleteAccount(*docsd_, alice_);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(call("GET", "/api/projects", bearer(token)).status, 401);
  EXPECT_EQ(sql("SELECT count(*) FROM auth_access_tokens"), "0");
}

TEST_F(AccessTokens, NeverAppearInTheLog) {
  std::string writer = create({{"name", "writer"}, {"scope", "write"}})["token"];
  std::string reader = create({{"name", "reader"}})["token"];
  EXPECT_EQ(call("GET", "/api/projects", bearer(writer)).status, 200);
  EXPECT_EQ(call("GET", "/api/projects?token=" + std::string("x"), bearer(reader)).status, 200);
  EXPECT_EQ(call("POST", "/api/project", bearer(reader), {{"name", "Refused"}}).status, 403);
  json body = {{"name", "x"}};
  EXPECT_EQ(call("POST", "/api/tokens", bearer(writer), body).status, 403);
  std::string revokedId = parsed(call("GET", "/api/tokens", alice_.bearer()))["tokens"][0]["id"];
  ASSERT_EQ(call("DELETE", "/api/tokens/" + revokedId, alice_.bearer()).status, 204);
  EXPECT_EQ(call("GET", "/api/projects", bearer(reader)).status, 401);
  EXPECT_EQ(call("GET", "/api/projects", bearer(reader.substr(0, 30))).status, 401);
  // Each request above was logged (debug level, access log on); no token was.
  std::string log = docsd_->log();
  EXPECT_NE(log.find("/api/tokens"), std::string::npos) << "the requests reached the log";
  EXPECT_EQ(log.find(writer.substr(9)), std::string::npos);
  EXPECT_EQ(log.find(reader.substr(9, 20)), std::string::npos);
  EXPECT_EQ(log.find("docs_pat_"), std::string::npos);
}

}  // namespace
