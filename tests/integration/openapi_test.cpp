// GET /api/openapi.json against the real docsd: a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator), listing exactly the loaded plugins' routes, and
// every JSON answer a described route declares checked with Ajv against what the route
// really answers (tests/openapi/check.mjs): the routes are called here, success and
// failure, and each 2xx JSON answer a route declares must have been seen.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using docs::test::Docsd;
using docs::test::HttpResponse;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

using Headers = std::map<std::string, std::string>;

json parsedBody(const HttpResponse& r) {
  if (r.header("content-type").find("application/json") == std::string::npos) return r.body.empty() ? json() : json(r.body);
  return json::parse(r.body, nullptr, false);
}

// Runs tests/openapi/check.mjs on a document and samples; its report.
json check(const json& document, const json& samples) {
  docs::test::TempDir dir;
  std::string file = dir.path() + "/input.json";
  std::ofstream(file) << json{{"document", document}, {"samples", samples}}.dump();
  auto [code, output] = docs::test::runCommand({"node", docs::test::sourceDir() + "/tests/openapi/check.mjs", file});
  EXPECT_EQ(code, 0) << output;
  json report = json::parse(output, nullptr, false);
  EXPECT_TRUE(report.is_object()) << output;
  return report;
}

class OpenApi : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}) {
    Docsd::Options options;
    options.env = std::move(env);
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }

  json document() {
    auto r = httpRequest(docsd_->port(), "GET", "/api/openapi.json");
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.header("content-type").find("application/json"), std::string::npos);
    return json::parse(r.body, nullptr, false);
  }

  // Calls `target` and records the answer as a sample of the route `path` (its template).
  HttpResponse call(const std::string& method, const std::string& path, const std::string& target, const Headers& auth,
                    const json& body = nullptr, int expected = 0) {
    Headers headers = auth;
    if (!body.is_null()) headers["Content-Type"] = "application/json";
    auto r = httpRequest(docsd_->port(), method, target, body.is_null() ? "" : body.dump(), headers);
    if (expected) {
      EXPECT_EQ(r.status, expected) << method << " " << target << ": " << r.body;
    }
    samples_.push_back({{"method", method}, {"path", path}, {"status", r.status}, {"body", parsedBody(r)}});
    return r;
  }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
  json samples_ = json::array();
};

TEST_F(OpenApi, IsValidAndEveryDeclaredJsonAnswerIsWhatTheRouteAnswers) {
  start();
  json doc = document();
  ASSERT_TRUE(doc.is_object());
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  Headers none;
  Headers as = alice.bearer();
  samples_.push_back({{"method", "GET"}, {"path", "/api/openapi.json"}, {"status", 200}, {"body", doc}});

  // The example plugin.
  call("GET", "/api/example/hello", "/api/example/hello", none, nullptr, 200);
  call("POST", "/api/example/echo", "/api/example/echo", none, {{"a", {1, 2}}}, 200);
  call("POST", "/api/example/echo", "/api/example/echo", none, json::array({1}), 400);
  auto note = parsedBody(call("POST", "/api/example/notes", "/api/example/notes", none, {{"text", "hi"}}, 201));
  call("POST", "/api/example/notes", "/api/example/notes", none, {{"text", ""}}, 400);
  call("GET", "/api/example/notes/{id}", "/api/example/notes/" + std::to_string(note.value("id", 0)), none, nullptr, 200);
  call("GET", "/api/example/notes/{id}", "/api/example/notes/999999", none, nullptr, 404);
  call("GET", "/api/example/notes/{id}", "/api/example/notes/abc", none, nullptr, 400);
  call("GET", "/api/example/stats", "/api/example/stats", none, nullptr, 200);
  {
    auto r = httpRequest(docsd_->port(), "POST", "/api/example/upload", std::string(1000, 'x'),
                         {{"Content-Type", "application/octet-stream"}});
    EXPECT_EQ(r.status, 200) << r.body;
    samples_.push_back({{"method", "POST"}, {"path", "/api/example/upload"}, {"status", r.status}, {"body", parsedBody(r)}});
  }
  call("POST", "/api/example/slow", "/api/example/slow", none, {{"ms", 0}}, 202);
  call("POST", "/api/example/slow", "/api/example/slow", none, {{"ms", -1}}, 400);

  // Personal access tokens.
  auto token = parsedBody(call("POST", "/api/tokens", "/api/tokens", as, {{"name", "openapi"}, {"expires_in_days", 7}}, 201));
  call("POST", "/api/tokens", "/api/tokens", as, {{"name", ""}}, 400);
  call("GET", "/api/tokens", "/api/tokens", as, nullptr, 200);
  call("GET", "/api/tokens", "/api/tokens", none, nullptr, 401);
  call("GET", "/api/tokens", "/api/tokens", {{"Authorization", "Bearer " + token.value("token", "")}}, nullptr, 403);
  std::string tokenPath = "/api/tokens/" + token.value("id", "0");
  call("DELETE", "/api/tokens/{id}", tokenPath, as, nullptr, 204);
  call("DELETE", "/api/tokens/{id}", tokenPath, as, nullptr, 404);

  // Projects and their pages.
  auto project = parsedBody(call("POST", "/api/project", "/api/project", as, {{"name", "Handbook"}}, 201));
  call("POST", "/api/project", "/api/project", as, {{"name", ""}}, 400);
  call("POST", "/api/project", "/api/project", none, {{"name", "x"}}, 401);
  call("POST", "/api/project/zip", "/api/project/zip", as, {{"name", "Zipped"}, {"is_private", false}}, 201);
  call("GET", "/api/projects", "/api/projects", as, nullptr, 200);
  call("GET", "/api/projects", "/api/projects", none, nullptr, 401);
  std::string id = std::to_string(project.value("id", 0));
  call("GET", "/api/project", "/api/project?projectId=" + id, as, nullptr, 200);
  call("GET", "/api/project", "/api/project?projectId=" + id, none, nullptr, 404);  // private
  call("GET", "/api/project", "/api/project", as, nullptr, 400);
  call("PATCH", "/api/project/{id}", "/api/project/" + id, as, {{"description", "The team's handbook"}}, 200);
  auto page = parsedBody(call("POST", "/api/project/{projectId}/page", "/api/project/" + id + "/page", as,
                              {{"name", "Child"}, {"parent_page_id", project.value("default_page_id", 0)}}, 201));
  std::string pageId = std::to_string(page.value("id", 0));
  call("GET", "/api/page/{id}", "/api/page/" + pageId, as, nullptr, 200);
  call("PATCH", "/api/page/{id}", "/api/page/" + pageId, as, {{"name", "Renamed"}, {"parent_id", 0}}, 200);
  call("PATCH", "/api/page/{id}", "/api/page/" + pageId, as, {{"parent_id", page.value("id", 0)}}, 400);
  call("DELETE", "/api/page/{id}", "/api/page/" + pageId, as, nullptr, 200);
  call("GET", "/api/page/{id}", "/api/page/" + pageId, as, nullptr, 404);
  call("DELETE", "/api/project/{id}", "/api/project/" + id, as, nullptr, 200);

  json report = check(doc, samples_);
  EXPECT_EQ(report["spec"]["valid"], true) << report["spec"].dump(2);
  EXPECT_EQ(report["spec"]["version"], "3.1");
  EXPECT_EQ(report["schemas"], json::array()) << report["schemas"].dump(2);
  EXPECT_EQ(report["mismatches"], json::array()) << report["mismatches"].dump(2);
  EXPECT_EQ(report["undeclared"], json::array()) << report["undeclared"].dump(2);
  EXPECT_EQ(report["unsampled"], json::array()) << report["unsampled"].dump(2);
  EXPECT_GE(report.value("checked", 0), 30);  // the samples with a JSON schema to meet

  // The check can fail: an answer that breaks its schema, a status the route does not
  // declare, and a declared answer never seen.
  json wrong = json::array({{{"method", "GET"}, {"path", "/api/example/hello"}, {"status", 200},
                             {"body", {{"message", 1}, {"plugin", "example"}}}},
                            {{"method", "GET"}, {"path", "/api/example/hello"}, {"status", 201}, {"body", json::object()}}});
  json failing = check(doc, wrong);
  EXPECT_EQ(failing["mismatches"].size(), 1u) << failing.dump(2);
  EXPECT_EQ(failing["undeclared"].size(), 1u) << failing.dump(2);
  EXPECT_FALSE(failing["unsampled"].empty());
}

TEST_F(OpenApi, ListsExactlyTheLoadedPluginsAndTheirUndescribedRoutesBare) {
  start({{"DOCS_PLUGINS_ENABLED", "all"}});  // production's default: no example plugin
  json doc = document();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["openapi"], "3.1.0");
  for (const auto& [path, item] : doc["paths"].items()) EXPECT_EQ(path.rfind("/api/example/", 0), std::string::npos) << path;
  std::set<std::string> plugins;
  for (const auto& plugin : doc["x-docsd-plugins"]) plugins.insert(plugin.value("name", ""));
  EXPECT_FALSE(plugins.count("example"));
  EXPECT_TRUE(plugins.count("auth"));
  // Described routes carry their plugin and answers; a route its plugin did not describe
  // is listed with its path parameters only.
  const json& list = doc["paths"]["/api/tokens"]["get"];
  EXPECT_EQ(list["x-docsd-plugin"], "auth");
  EXPECT_EQ(list["x-docsd-described"], true);
  EXPECT_TRUE(list["responses"].contains("200"));
  const json& upload = doc["paths"]["/api/project/{id}/upload-zip"]["post"];
  EXPECT_EQ(upload["x-docsd-plugin"], "projects");
  EXPECT_EQ(upload["x-docsd-described"], false);
  EXPECT_EQ(upload["parameters"][0]["name"], "id");
  EXPECT_EQ(doc["paths"]["/api/openapi.json"]["get"]["x-docsd-plugin"], "core");
  std::size_t operations = 0;
  for (const auto& [path, item] : doc["paths"].items()) operations += item.size();
  EXPECT_GT(operations, 30u);
}

}  // namespace
