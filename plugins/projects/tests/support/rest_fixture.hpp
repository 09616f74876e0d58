#pragma once
// Shared by the projects, rbac and pages integration tests: a real docsd on the test
// cluster, users signed in through the real auth plugin, and small JSON call helpers.

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <docs/codec/codec.hpp>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"

namespace docs::rest_test {

using Headers = std::map<std::string, std::string>;
using docs::test::HttpResponse;
using nlohmann::json;

inline json parse(const HttpResponse& r) { return json::parse(r.body, nullptr, false); }

class RestTest : public ::testing::Test {
 protected:
  void startServer(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages");
    docs::test::Docsd::Options docsdOptions;
    docsdOptions.env = env;
    docsdOptions.databaseUrl = database_.url();
    docsd_ = std::make_unique<docs::test::Docsd>(docsdOptions);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  int port() const { return docsd_->port(); }

  docs::test::SignedIn signIn(const std::string& email) { return docs::test::signInByEmail(*docsd_, email); }
  static Headers as(const docs::test::SignedIn& user) { return user.bearer(); }

  HttpResponse call(const std::string& method, const std::string& path, const std::string& body = "",
                    Headers headers = {}) {
    if (!body.empty() && !headers.count("Content-Type")) headers["Content-Type"] = "application/json";
    return docs::test::httpRequest(port(), method, path, body, headers, std::chrono::seconds(60));
  }
  HttpResponse call(const std::string& method, const std::string& path, const json& body, Headers headers) {
    return call(method, path, body.dump(), std::move(headers));
  }
  // Picks the raw-body overload for string literals ("" is also convertible to json).
  HttpResponse call(const std::string& method, const std::string& path, const char* body, Headers headers = {}) {
    return call(method, path, std::string(body), std::move(headers));
  }

  // Creates a project as `owner` and returns its JSON (asserting 201).
  json createProject(const docs::test::SignedIn& owner, const std::string& name, bool isPrivate,
                     const std::string& path = "/api/project") {
    auto r = call("POST", path, json{{"name", name}, {"is_private", isPrivate}}, as(owner));
    EXPECT_EQ(r.status, 201) << r.body;
    return parse(r);
  }
  json createPage(const docs::test::SignedIn& user, std::int64_t projectId, std::int64_t parentId = 0) {
    json body = json::object();
    if (parentId) body["parent_page_id"] = parentId;
    auto r = call("POST", "/api/project/" + std::to_string(projectId) + "/page", body, as(user));
    EXPECT_EQ(r.status, 201) << r.body;
    return parse(r);
  }
  void grant(const docs::test::SignedIn& admin, std::int64_t projectId, const std::string& email,
             const std::string& role) {
    auto r =
        call("POST", "/api/rbac/project", json{{"project_id", projectId}, {"email", email}, {"role", role}}, as(admin));
    ASSERT_EQ(r.status, 201) << r.body;
  }

  static void expectError(const HttpResponse& r, int status, const std::string& message = "") {
    EXPECT_EQ(r.status, status) << r.body;
    auto body = parse(r);
    ASSERT_TRUE(body.is_object() && body.contains("error")) << r.body;
    if (!message.empty()) {
      EXPECT_EQ(body["error"]["message"], message) << r.body;
    }
  }

  // Runs SQL directly on the test database (fixtures only; the plugins never do this).
  std::string sql(const std::string& statement) { return docs::test::sqlValue(database_.url(), statement); }

  docs::test::TestDatabase database_;
  std::unique_ptr<docs::test::Docsd> docsd_;
};

// A multipart/form-data body with one file field.
inline std::string multipartBody(const std::string& boundary, const std::string& field, const std::string& fileName,
                                 const std::string& contentType, const std::string& content) {
  return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" + fileName +
         "\"\r\nContent-Type: " + contentType + "\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
}
inline Headers multipartHeaders(Headers headers, const std::string& boundary) {
  headers["Content-Type"] = "multipart/form-data; boundary=" + boundary;
  return headers;
}
// The smallest valid ZIP: an empty archive's end-of-central-directory record.
inline std::string emptyZip() { return std::string("PK\x05\x06", 4) + std::string(18, '\0'); }
inline std::string pngBytes(std::size_t size = 64) {
  std::string png("\x89PNG\r\n\x1a\n", 8);
  png.resize(size, 'x');
  return png;
}
inline std::string base64(const std::string& bytes) { return docs::codec::base64Encode(bytes); }

}  // namespace docs::rest_test
