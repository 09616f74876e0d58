// GET /api/openapi.json against the real docsd: a valid OpenAPI 3.1 document (checked by
// @seriousme/openapi-schema-validator), listing exactly the loaded plugins' routes, and
// every JSON answer a described route declares checked with Ajv against what the route
// really answers (tests/openapi/check.mjs): the routes are called here, success and
// failure, and each 2xx JSON answer a route declares must have been seen.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <docs/codec/codec.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include "test_support.hpp"

using docs::test::base64;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using docs::test::SignedIn;
using nlohmann::json;

namespace {

using Headers = std::map<std::string, std::string>;

const std::string kWebhookSecret = "openapi-webhook-secret";

json parsedBody(const HttpResponse& r) {
  std::string type = r.header("content-type");
  if (type.rfind("image/", 0) == 0) return nullptr;  // bytes; the check looks at JSON only
  if (type.find("application/json") == std::string::npos) return r.body.empty() ? json() : json(r.body);
  return json::parse(r.body, nullptr, false);
}

// A Yjs update that writes one paragraph into an empty page.
std::string paragraphUpdate(const std::string& text) {
  docs::ydoc::Doc doc(0x0a9e0001);
  json blocks = json::array({{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}}});
  docs::ydoc::applyProseMirrorJson(doc, json{{"type", "doc"}, {"content", blocks}});
  return base64(doc.encodeStateAsUpdate());
}

std::string webhookSignature(const std::string& body) {
  return "sha256=" + docs::codec::hexEncode(docs::codec::hmacSha256(kWebhookSecret, body));
}

// The token of the sign-in link in the newest mail to `email` ("" when none).
std::string latestLinkToken(const std::string& dataDir, const std::string& email) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(dataDir) / "outbox"))
    if (entry.path().extension() == ".eml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    std::ifstream in(*it);
    std::stringstream text;
    text << in.rdbuf();
    std::string mail = text.str();
    if (mail.find("To: " + email + "\r\n") == std::string::npos) continue;
    auto at = mail.find("/login/link#token=");
    if (at == std::string::npos) return "";
    at += 18;
    return mail.substr(at, mail.find_first_of("\r\n\" <", at) - at);
  }
  return "";
}

std::string multipart(const std::string& boundary, const std::string& fileName, const std::string& bytes) {
  return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName +
         "\"\r\nContent-Type: application/zip\r\n\r\n" + bytes + "\r\n--" + boundary + "--\r\n";
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

  // As call(), with a body that is not JSON (its Content-Type among `headers`).
  HttpResponse send(const std::string& method, const std::string& path, const std::string& target,
                    const Headers& headers, const std::string& body, int expected) {
    auto r = httpRequest(docsd_->port(), method, target, body, headers);
    EXPECT_EQ(r.status, expected) << method << " " << target << ": " << r.body;
    samples_.push_back({{"method", method}, {"path", path}, {"status", r.status}, {"body", parsedBody(r)}});
    return r;
  }

  // Asks (unrecorded) until `done` holds for the JSON answer, within a generous deadline.
  json waitFor(const std::string& target, const Headers& auth, const std::function<bool(const json&)>& done) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      auto r = httpRequest(docsd_->port(), "GET", target, "", auth);
      json body = json::parse(r.body, nullptr, false);
      if (r.status == 200 && done(body)) return body;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "never reached the awaited state: " << target;
    return json();
  }

  void authRoutes();
  void pageRoutes(std::int64_t projectId, std::int64_t pageId, const SignedIn& alice);
  void sharingRoutes(std::int64_t projectId, std::int64_t pageId, const SignedIn& alice);
  void historyRoutes(std::int64_t pageId, const SignedIn& alice);
  void repositoryRoutes(const SignedIn& alice);
  void searchRoutes(const SignedIn& alice);

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
  json samples_ = json::array();
};

void OpenApi::pageRoutes(std::int64_t projectId, std::int64_t pageId, const SignedIn& alice) {
  Headers as = alice.bearer();
  std::string page = "/api/page/" + std::to_string(pageId);
  call("PUT", "/api/page/{id}/content", page + "/content", as, {{"content_bytea", paragraphUpdate("Welcome aboard")}},
       200);
  call("PUT", "/api/page/{id}/content", page + "/content", as, {{"content_bytea", "not base64!"}}, 400);
  call("GET", "/api/page/{id}/content", page + "/content", as, nullptr, 200);
  call("GET", "/api/page/{id}/content", "/api/page/999999/content", as, nullptr, 404);
  call("GET", "/api/page/{id}/export", page + "/export?format=md", as, nullptr, 200);
  call("GET", "/api/page/{id}/export", page + "/export?format=pdf", as, nullptr, 400);

  std::string images = "/api/project/" + std::to_string(projectId) + "/page/" + std::to_string(pageId);
  std::string png("\x89PNG\r\n\x1a\n", 8);
  png.resize(64, 'x');
  Headers asPng = as;
  asPng["Content-Type"] = "image/png";
  auto uploaded =
      parsedBody(send("POST", "/api/project/{projectId}/page/{pageId}/upload", images + "/upload", asPng, png, 200));
  send("POST", "/api/project/{projectId}/page/{pageId}/upload", images + "/upload", asPng, "<svg/>", 400);
  std::string url = uploaded.value("url", "");
  std::string name = url.substr(url.rfind('/') + 1);
  call("GET", "/api/project/{projectId}/page/{pageId}/image/{name}", images + "/image/" + name, as, nullptr, 200);
  call("GET", "/api/project/{projectId}/page/{pageId}/image/{name}/signed", images + "/image/" + name + "/signed", as,
       nullptr, 200);
  call("GET", "/api/project/{projectId}/page/{pageId}/image/{name}", images + "/image/missing.png", as, nullptr, 404);
}

void OpenApi::sharingRoutes(std::int64_t projectId, std::int64_t pageId, const SignedIn& alice) {
  Headers as = alice.bearer();
  json bob = {{"project_id", projectId}, {"email", "bob@example.com"}};
  call("POST", "/api/rbac/project", "/api/rbac/project", as,
       {{"project_id", projectId}, {"email", "bob@example.com"}, {"role", "write"}}, 201);
  call("POST", "/api/rbac/project", "/api/rbac/project", as,
       {{"project_id", projectId}, {"email", "bob@example.com"}, {"role", "read"}}, 409);
  call("POST", "/api/rbac/project", "/api/rbac/project", as,
       {{"project_id", projectId}, {"email", "x"}, {"role", "read"}}, 400);
  call("PATCH", "/api/rbac/project", "/api/rbac/project", as,
       {{"project_id", projectId}, {"email", "bob@example.com"}, {"new_role", "read"}}, 200);
  call("GET", "/api/rbac/project/{id}", "/api/rbac/project/" + std::to_string(projectId), as, nullptr, 200);
  call("DELETE", "/api/rbac/project", "/api/rbac/project", as, bob, 200);
  call("DELETE", "/api/rbac/project", "/api/rbac/project", as, bob, 404);

  std::string comments = "/api/page/" + std::to_string(pageId) + "/comments";
  auto thread = parsedBody(call("POST", "/api/page/{id}/comments", comments, as,
                                {{"body", "Is this **current**?"}, {"quote", "Welcome"}}, 201));
  std::int64_t threadId = thread["thread"].value("id", 0);
  auto reply = parsedBody(
      call("POST", "/api/page/{id}/comments", comments, as, {{"body", "Yes"}, {"thread_id", threadId}}, 201));
  call("POST", "/api/page/{id}/comments", comments, as, {{"body", ""}}, 400);
  call("GET", "/api/page/{id}/comments", comments, as, nullptr, 200);
  std::string first = "/api/comment/" + std::to_string(thread["comment"].value("id", 0));
  call("PATCH", "/api/comment/{id}", first, as, {{"resolved", true}}, 200);
  call("PATCH", "/api/comment/{id}", first, as, json::object(), 400);
  call("DELETE", "/api/comment/{id}", "/api/comment/" + std::to_string(reply["comment"].value("id", 0)), as, nullptr,
       200);
  call("DELETE", "/api/comment/{id}", "/api/comment/999999", as, nullptr, 404);
}

void OpenApi::historyRoutes(std::int64_t pageId, const SignedIn& alice) {
  Headers as = alice.bearer();
  std::string history = "/api/page/" + std::to_string(pageId) + "/history";
  // The edit of pageRoutes becomes a version once editing pauses.
  json listed = waitFor(history, as, [](const json& body) { return body.is_object() && !body["versions"].empty(); });
  ASSERT_TRUE(listed.is_object());
  std::string version = std::to_string(listed["versions"][0].value("id", 0));
  call("GET", "/api/page/{id}/history", history, as, nullptr, 200);
  call("GET", "/api/page/{id}/history", history + "?limit=0", as, nullptr, 400);
  call("GET", "/api/page/{id}/history/{version}", history + "/" + version, as, nullptr, 200);
  call("GET", "/api/page/{id}/history/{version}", history + "/999999", as, nullptr, 404);
  call("GET", "/api/page/{id}/history/{version}/diff", history + "/" + version + "/diff", as, nullptr, 200);
  call("POST", "/api/page/{id}/history/{version}/restore", history + "/" + version + "/restore", as, nullptr, 200);
}

void OpenApi::repositoryRoutes(const SignedIn& alice) {
  Headers as = alice.bearer();
  json repository = {{"repo_owner", "octo"},
                     {"repo_name", "handbook"},
                     {"name", "Octo handbook"},
                     {"language", "en"},
                     {"is_private", true}};
  call("POST", "/api/project/github", "/api/project/github", as, repository, 201);
  call("POST", "/api/project/github", "/api/project/github", as, repository, 409);
  call("POST", "/api/project/github", "/api/project/github", as, {{"repo_owner", "octo"}}, 400);
  call("GET", "/api/github/{owner}/{repo}/installation/status", "/api/github/octo/handbook/installation/status", as,
       nullptr, 200);
  call("GET", "/api/github/{owner}/{repo}/installation/status", "/api/github/octo/handbook/installation/status", {},
       nullptr, 401);
  std::string ping = json{{"zen", "Keep it logically awesome."}, {"hook_id", 1}}.dump();
  Headers delivery = {{"Content-Type", "application/json"},
                      {"X-GitHub-Event", "ping"},
                      {"X-GitHub-Delivery", "openapi-ping"},
                      {"X-Hub-Signature-256", webhookSignature(ping)}};
  send("POST", "/api/github/webhook", "/api/github/webhook", delivery, ping, 200);
  delivery["X-Hub-Signature-256"] = webhookSignature(ping + " ");
  send("POST", "/api/github/webhook", "/api/github/webhook", delivery, ping, 401);

  // A ZIP project whose upload is no ZIP: stored, then its generation fails to unpack it.
  auto project = parsedBody(call("POST", "/api/project/zip", "/api/project/zip", as, {{"name", "Broken upload"}}, 201));
  std::string id = std::to_string(project.value("id", 0));
  Headers form = as;
  form["Content-Type"] = "multipart/form-data; boundary=openapi";
  send("POST", "/api/project/{id}/upload-zip", "/api/project/" + id + "/upload-zip", form,
       multipart("openapi", "source.zip", "not a zip at all"), 200);
  send("POST", "/api/project/{id}/upload-zip", "/api/project/" + id + "/upload-zip", as, "plain", 400);
  std::string generation = "/api/project/" + id + "/generation";
  waitFor(generation, as, [](const json& body) { return body.is_object() && body.value("failed", false); });
  call("GET", "/api/project/{id}/generation", generation, as, nullptr, 200);
  call("GET", "/api/project/{id}/generation", "/api/project/999999/generation", as, nullptr, 404);
  call("POST", "/api/project/{id}/generation/retry", generation + "/retry", as, nullptr, 202);
  auto ready = parsedBody(call("POST", "/api/project", "/api/project", as, {{"name", "Nothing to retry"}}, 201));
  call("POST", "/api/project/{id}/generation/retry",
       "/api/project/" + std::to_string(ready.value("id", 0)) + "/generation/retry", as, nullptr, 409);
  // The source view's file: placed where an unpacked upload's sources live, in a project
  // no run touches (the retried one above may be unpacking into its own folder meanwhile).
  std::string quiet = std::to_string(ready.value("id", 0));
  std::filesystem::path sources = std::filesystem::path(docsd_->dataDir()) / "generation" / quiet / "source" / "pkg";
  std::filesystem::create_directories(sources);
  std::ofstream(sources / "util.py") << "def helper():\n    return 1\n";
  std::string source = "/api/project/" + quiet + "/source";
  call("GET", "/api/project/{id}/source", source + "?path=pkg/util.py", as, nullptr, 200);
  call("GET", "/api/project/{id}/source", source + "?path=pkg/missing.py", as, nullptr, 404);
  call("GET", "/api/project/{id}/source", source + "?path=../analysis.json", as, nullptr, 400);
}

void OpenApi::searchRoutes(const SignedIn& alice) {
  Headers as = alice.bearer();
  call("POST", "/lab/rag", "/lab/rag", as, {{"query", "handbook"}, {"is_all", true}}, 200);
  call("POST", "/lab/rag", "/lab/rag", as, {{"query", "What is in the handbook?"}, {"is_all", true}, {"is_llm", true}},
       200);
  call("POST", "/lab/rag", "/lab/rag", as, {{"query", "  "}, {"is_all", true}}, 400);

  Headers mcp = as;
  mcp["Accept"] = "application/json, text/event-stream";
  json initialize = {{"jsonrpc", "2.0"},
                     {"id", 1},
                     {"method", "initialize"},
                     {"params",
                      {{"protocolVersion", "2025-11-25"},
                       {"capabilities", json::object()},
                       {"clientInfo", {{"name", "openapi-test"}, {"version", "1"}}}}}};
  auto opened = call("POST", "/mcp", "/mcp", mcp, initialize, 200);
  call("POST", "/mcp", "/mcp", mcp, {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}, 400);  // no session yet
  mcp["Mcp-Session-Id"] = opened.header("mcp-session-id");
  mcp["MCP-Protocol-Version"] = "2025-11-25";
  call("POST", "/mcp", "/mcp", mcp, {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, 202);
  call("POST", "/mcp", "/mcp", mcp, {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}, 200);
  call("POST", "/mcp", "/mcp", mcp, {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "no/such"}}, 200);
  call("POST", "/mcp", "/mcp", {{"Authorization", "Bearer not-a-token"}}, initialize, 401);
  call("GET", "/mcp", "/mcp", mcp, nullptr, 405);
  call("DELETE", "/mcp", "/mcp", mcp, nullptr, 204);
  call("DELETE", "/mcp", "/mcp", mcp, nullptr, 404);
  call("POST", "/mcp", "/mcp", mcp, {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "ping"}}, 404);  // the session ended
}

void OpenApi::authRoutes() {
  Headers none;
  const std::string& dataDir = docsd_->dataDir();
  call("GET", "/api/auth/get-session", "/api/auth/get-session", none, nullptr, 200);  // null
  call("GET", "/api/auth/jwks", "/api/auth/jwks", none, nullptr, 200);

  // A code by mail, then the sign-in with it.
  call("POST", "/api/auth/email-otp/send-verification-otp", "/api/auth/email-otp/send-verification-otp", none,
       {{"email", "carol@example.com"}, {"type", "sign-in"}}, 200);
  call("POST", "/api/auth/email-otp/send-verification-otp", "/api/auth/email-otp/send-verification-otp", none,
       {{"email", "carol@example.com"}, {"type", "sign-up"}}, 400);
  std::string code = docs::test::latestOutboxCode(dataDir, "carol@example.com");
  ASSERT_EQ(code.size(), 6u);
  call("POST", "/api/auth/sign-in/email-otp", "/api/auth/sign-in/email-otp", none,
       {{"email", "carol@example.com"}, {"otp", code == "000000" ? "111111" : "000000"}}, 400);
  auto signedIn = call("POST", "/api/auth/sign-in/email-otp", "/api/auth/sign-in/email-otp", none,
                       {{"email", "carol@example.com"}, {"otp", code}}, 200);
  Headers carol = {{"Authorization", "Bearer " + signedIn.header("set-auth-jwt")}};
  call("GET", "/api/auth/get-session", "/api/auth/get-session", carol, nullptr, 200);
  call("GET", "/api/auth/token", "/api/auth/token", carol, nullptr, 200);
  call("GET", "/api/auth/token", "/api/auth/token", none, nullptr, 401);

  // The link mailed with a code.
  call("POST", "/api/auth/email-otp/send-verification-otp", "/api/auth/email-otp/send-verification-otp", none,
       {{"email", "dave@example.com"}}, 200);
  std::string link = latestLinkToken(dataDir, "dave@example.com");
  ASSERT_FALSE(link.empty());
  auto dave =
      call("POST", "/api/auth/sign-in/magic-link", "/api/auth/sign-in/magic-link", none, {{"token", link}}, 200);
  call("POST", "/api/auth/sign-in/magic-link", "/api/auth/sign-in/magic-link", none, {{"token", link}}, 400);  // used
  Headers asDave = {{"Authorization", "Bearer " + dave.header("set-auth-jwt")}};

  // GitHub sign-in starts (GitHub itself is never reached here); a callback without state.
  call("POST", "/api/auth/sign-in/social", "/api/auth/sign-in/social", none,
       {{"provider", "github"}, {"callbackURL", "/"}}, 200);
  call("POST", "/api/auth/sign-in/social", "/api/auth/sign-in/social", none, {{"provider", "gitlab"}}, 400);
  call("GET", "/api/auth/callback/github", "/api/auth/callback/github?state=forged&code=x", none, nullptr, 302);

  // Deleting an account takes a mailed code.
  call("POST", "/api/auth/delete-user/send-code", "/api/auth/delete-user/send-code", asDave, nullptr, 200);
  call("POST", "/api/auth/delete-user", "/api/auth/delete-user", asDave, json::object(), 403);
  std::string deletion = docs::test::latestOutboxCode(dataDir, "dave@example.com", "account deletion code is");
  ASSERT_EQ(deletion.size(), 6u);
  call("POST", "/api/auth/delete-user", "/api/auth/delete-user", asDave, {{"otp", deletion}}, 200);

  call("POST", "/api/auth/sign-out", "/api/auth/sign-out", carol, nullptr, 200);
}

TEST_F(OpenApi, IsValidAndEveryDeclaredJsonAnswerIsWhatTheRouteAnswers) {
  start({{"DOCS_GITHUB_WEBHOOK_SECRET", kWebhookSecret},
         {"DOCS_GITHUB_CLIENT_ID", "openapi-client"},
         {"DOCS_GITHUB_CLIENT_SECRET", "openapi-secret"},
         // Nothing listens there: no test reaches GitHub (a repository project fails to clone).
         {"DOCS_GITHUB_URL", "http://127.0.0.1:9"},
         {"DOCS_GITHUB_API_URL", "http://127.0.0.1:9"},
         // History cuts a version a second after an edit.
         {"DOCS_COLLAB_COMPACT_DEBOUNCE_MS", "100"},
         {"DOCS_HISTORY_IDLE_SECONDS", "1"},
         {"DOCS_HISTORY_SNAPSHOT_CHECK_MS", "200"}});
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
  call("GET", "/api/example/notes/{id}", "/api/example/notes/" + std::to_string(note.value("id", 0)), none, nullptr,
       200);
  call("GET", "/api/example/notes/{id}", "/api/example/notes/999999", none, nullptr, 404);
  call("GET", "/api/example/notes/{id}", "/api/example/notes/abc", none, nullptr, 400);
  call("GET", "/api/example/stats", "/api/example/stats", none, nullptr, 200);
  {
    auto r = httpRequest(docsd_->port(), "POST", "/api/example/upload", std::string(1000, 'x'),
                         {{"Content-Type", "application/octet-stream"}});
    EXPECT_EQ(r.status, 200) << r.body;
    samples_.push_back(
        {{"method", "POST"}, {"path", "/api/example/upload"}, {"status", r.status}, {"body", parsedBody(r)}});
  }
  call("POST", "/api/example/slow", "/api/example/slow", none, {{"ms", 0}}, 202);
  call("POST", "/api/example/slow", "/api/example/slow", none, {{"ms", -1}}, 400);

  // Personal access tokens.
  auto token =
      parsedBody(call("POST", "/api/tokens", "/api/tokens", as, {{"name", "openapi"}, {"expires_in_days", 7}}, 201));
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
  pageRoutes(project.value("id", 0), project.value("default_page_id", 0), alice);
  sharingRoutes(project.value("id", 0), project.value("default_page_id", 0), alice);
  historyRoutes(project.value("default_page_id", 0), alice);
  call("PATCH", "/api/page/{id}", "/api/page/" + pageId, as, {{"name", "Renamed"}, {"parent_id", 0}}, 200);
  call("PATCH", "/api/page/{id}", "/api/page/" + pageId, as, {{"parent_id", page.value("id", 0)}}, 400);
  call("DELETE", "/api/page/{id}", "/api/page/" + pageId, as, nullptr, 200);
  call("GET", "/api/page/{id}", "/api/page/" + pageId, as, nullptr, 404);
  call("DELETE", "/api/project/{id}", "/api/project/" + id, as, nullptr, 200);

  repositoryRoutes(alice);
  searchRoutes(alice);
  authRoutes();

  json report = check(doc, samples_);
  EXPECT_EQ(report["spec"]["valid"], true) << report["spec"].dump(2);
  EXPECT_EQ(report["spec"]["version"], "3.1");
  EXPECT_EQ(report["schemas"], json::array()) << report["schemas"].dump(2);
  EXPECT_EQ(report["mismatches"], json::array()) << report["mismatches"].dump(2);
  EXPECT_EQ(report["undeclared"], json::array()) << report["undeclared"].dump(2);
  EXPECT_EQ(report["unsampled"], json::array()) << report["unsampled"].dump(2);
  EXPECT_GE(report.value("checked", 0), 100);  // the samples with a JSON schema to meet

  // The check can fail: an answer that breaks its schema, a status the route does not
  // declare, and a declared answer never seen.
  json wrong =
      json::array({{{"method", "GET"},
                    {"path", "/api/example/hello"},
                    {"status", 200},
                    {"body", {{"message", 1}, {"plugin", "example"}}}},
                   {{"method", "GET"}, {"path", "/api/example/hello"}, {"status", 201}, {"body", json::object()}}});
  json failing = check(doc, wrong);
  EXPECT_EQ(failing["mismatches"].size(), 1u) << failing.dump(2);
  EXPECT_EQ(failing["undeclared"].size(), 1u) << failing.dump(2);
  EXPECT_FALSE(failing["unsampled"].empty());
}

TEST_F(OpenApi, ListsExactlyTheLoadedPluginsAndDescribesEveryRoute) {
  start({{"DOCS_PLUGINS_ENABLED", "all"}});  // production's default: no example plugin
  json doc = document();
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["openapi"], "3.1.0");
  for (const auto& [path, item] : doc["paths"].items())
    EXPECT_EQ(path.rfind("/api/example/", 0), std::string::npos) << path;
  std::set<std::string> plugins;
  for (const auto& plugin : doc["x-docsd-plugins"]) plugins.insert(plugin.value("name", ""));
  EXPECT_FALSE(plugins.count("example"));
  for (const char* name :
       {"auth", "rbac", "projects", "pages", "collab", "comments", "generation", "github", "rag", "mcp"})
    EXPECT_TRUE(plugins.count(name)) << name;
  // Every route of the deployment says what it takes and answers (a route its plugin did
  // not describe would be listed bare, x-docsd-described false: the core's unit tests).
  std::size_t operations = 0;
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      ++operations;
      EXPECT_EQ(op.value("x-docsd-described", false), true)
          << method << " " << path << " (" << op.value("x-docsd-plugin", "") << ")";
      EXPECT_FALSE(op.value("summary", "").empty()) << method << " " << path;
    }
  }
  const json& list = doc["paths"]["/api/tokens"]["get"];
  EXPECT_EQ(list["x-docsd-plugin"], "auth");
  EXPECT_TRUE(list["responses"].contains("200"));
  EXPECT_EQ(doc["paths"]["/mcp"]["post"]["x-docsd-plugin"], "mcp");
  EXPECT_EQ(doc["paths"]["/api/openapi.json"]["get"]["x-docsd-plugin"], "core");
  EXPECT_GT(operations, 50u);
}

}  // namespace
