// The real docsd against the shared test cluster: health, routes, errors, CORS, SPA.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

class ServerTest : public ::testing::Test {
 protected:
  void startServer(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_EXAMPLE_TICK_MS", "200");
    docsd_ = std::make_unique<Docsd>(Docsd::Options{env, {"serve"}, "", database_.url()});
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  docs::test::HttpResponse get(const std::string& path, const std::map<std::string, std::string>& headers = {}) {
    return httpRequest(docsd_->port(), "GET", path, "", headers);
  }
  docs::test::HttpResponse post(const std::string& path, const std::string& body,
                                const std::map<std::string, std::string>& headers = {
                                    {"Content-Type", "application/json"}}) {
    return httpRequest(docsd_->port(), "POST", path, body, headers);
  }
  static json body(const docs::test::HttpResponse& r) { return json::parse(r.body, nullptr, false); }
  static void expectError(const docs::test::HttpResponse& r, int status, const std::string& code) {
    EXPECT_EQ(r.status, status) << r.body;
    auto b = body(r);
    ASSERT_TRUE(b.is_object()) << r.body;
    EXPECT_EQ(b["error"]["code"], code) << r.body;
    EXPECT_FALSE(b["error"]["message"].get<std::string>().empty());
    EXPECT_EQ(b["error"]["request_id"], r.header("x-request-id"));
  }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
};

}  // namespace

TEST_F(ServerTest, HealthReadinessAndClientConfig) {
  startServer({{"DOCS_SERVER_MODE", "stage"},
               {"DOCS_GITHUB_APP_SLUG", "docs-app-test"},
               {"DOCS_SITE_CONTACT_EMAIL", "sales@acme.example"}});
  EXPECT_EQ(body(get("/healthz"))["status"], "ok");
  auto ready = get("/readyz");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(body(ready)["status"], "ready");
  auto config = body(get("/config.json"));
  EXPECT_EQ(config["mode"], "stage");
  EXPECT_EQ(config["githubAppSlug"], "docs-app-test");
  EXPECT_EQ(config["contactEmail"], "sales@acme.example");
  std::string origin = "http://localhost:" + std::to_string(docsd_->port());
  EXPECT_EQ(config["apiUrl"], origin);
  EXPECT_EQ(config["authUrl"], origin);
  EXPECT_EQ(config["ragUrl"], origin);
  EXPECT_EQ(config["collabUrl"], "ws://localhost:" + std::to_string(docsd_->port()) + "/collaboration");
  EXPECT_EQ(config["features"]["example"], true);
  EXPECT_EQ(config["features"]["rag"], true);  // every plugin of the build is enabled by default
}

TEST_F(ServerTest, SubHostsComeFromThePublicUrl) {
  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"}, {"DOCS_SERVER_SUBHOSTS", "true"}});
  auto config = body(get("/config.json"));
  EXPECT_EQ(config["authUrl"], "https://auth.docs.example.com");
  EXPECT_EQ(config["apiUrl"], "https://api.docs.example.com");
  EXPECT_EQ(config["ragUrl"], "https://rag.docs.example.com");
  EXPECT_EQ(config["collabUrl"], "wss://y.docs.example.com/collaboration");
}

TEST_F(ServerTest, PluginRouteJobEventAndPeriodicTaskEndToEnd) {
  startServer();
  EXPECT_EQ(body(get("/api/example/hello"))["message"], "hello");
  auto created = post("/api/example/notes", R"({"text": "write the docs"})");
  ASSERT_EQ(created.status, 201) << created.body;
  auto id = body(created)["id"].get<std::int64_t>();
  json note;
  for (int i = 0; i < 100; ++i) {
    note = body(get("/api/example/notes/" + std::to_string(id)));
    if (note["processed"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(note["processed"], true) << "the job should have run";
  EXPECT_EQ(note["text"], "write the docs");
  json stats;
  for (int i = 0; i < 100; ++i) {
    stats = body(get("/api/example/stats"));
    if (stats.value("events_seen", 0) >= 1 && stats.value("ticks", 0) >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_GE(stats.value("events_seen", 0), 1) << stats.dump();
  EXPECT_GE(stats.value("ticks", 0), 2) << stats.dump();
}

TEST_F(ServerTest, ConfigurationReachesPlugins) {
  startServer({{"DOCS_EXAMPLE_GREETING", "bonjour"}});
  EXPECT_EQ(body(get("/api/example/hello"))["message"], "bonjour");
}

TEST_F(ServerTest, BadInputGetsJsonErrors) {
  startServer();
  expectError(post("/api/example/echo", "{not json"), 400, "invalid_json");
  expectError(post("/api/example/echo", "[1,2,3]"), 400, "invalid_json");
  expectError(post("/api/example/echo", ""), 400, "invalid_json");
  expectError(post("/api/example/notes", R"({"text": 42})"), 400, "invalid_field");
  expectError(get("/api/example/notes/abc"), 400, "invalid_id");
  expectError(get("/api/example/notes/-1"), 400, "invalid_id");
  expectError(get("/api/example/notes/99999999999999999999999"), 400, "invalid_id");
  expectError(get("/api/example/notes/424242"), 404, "not_found");
  expectError(get("/api/nothing/here"), 404, "not_found");
  expectError(get("/lab/nothing"), 404, "not_found");
  expectError(get("/lab/rag"), 405, "method_not_allowed");
  auto wrongMethod = httpRequest(docsd_->port(), "DELETE", "/api/example/hello");
  expectError(wrongMethod, 405, "method_not_allowed");
  EXPECT_EQ(wrongMethod.header("allow"), "GET");
  expectError(httpRequest(docsd_->port(), "BREW", "/api/example/hello"), 405, "method_not_allowed");
  // The echo route round-trips what it accepts.
  EXPECT_EQ(body(post("/api/example/echo", R"({"a": [1, "two"]})"))["a"][1], "two");
}

TEST_F(ServerTest, BodiesOverTheRouteLimitAre413) {
  startServer();
  std::string big = "{\"x\":\"" + std::string(70 * 1024, 'a') + "\"}";
  expectError(post("/api/example/echo", big), 413, "payload_too_large");
  // Chunked bodies are counted as they arrive.
  std::string chunked;
  for (int i = 0; i < 20; ++i) {
    std::string piece(4096, 'b');
    char size[16];
    std::snprintf(size, sizeof size, "%zx", piece.size());
    chunked += std::string(size) + "\r\n" + piece + "\r\n";
  }
  chunked += "0\r\n\r\n";
  expectError(httpRequest(docsd_->port(), "POST", "/api/example/echo", chunked,
                          {{"Transfer-Encoding", "chunked"}, {"Content-Type", "application/json"}}),
              413, "payload_too_large");
  // A streamed upload under its limit is counted, over it refused.
  EXPECT_EQ(body(post("/api/example/upload", std::string(3 << 20, 'z'),
                      {{"Content-Type", "application/octet-stream"}}))["bytes"],
            3 << 20);
  expectError(post("/api/example/upload", std::string(9 << 20, 'z'), {{"Content-Type", "application/octet-stream"}}),
              413, "payload_too_large");
  // The server is fine afterwards.
  EXPECT_EQ(get("/healthz").status, 200);
}

TEST_F(ServerTest, RequestIdsAreEchoedOrMade) {
  startServer();
  EXPECT_EQ(get("/healthz", {{"X-Request-Id", "abc-123"}}).header("x-request-id"), "abc-123");
  auto generated = get("/healthz", {{"X-Request-Id", "bad id with spaces"}}).header("x-request-id");
  EXPECT_EQ(generated.size(), 16u);
}

TEST_F(ServerTest, CorsAllowsConfiguredOriginsWithCredentialsOnly) {
  startServer({{"DOCS_SERVER_ALLOWED_ORIGINS", "https://app.example.com"}});
  auto allowed = get("/api/example/hello", {{"Origin", "https://app.example.com"}});
  EXPECT_EQ(allowed.header("access-control-allow-origin"), "https://app.example.com");
  EXPECT_EQ(allowed.header("access-control-allow-credentials"), "true");
  EXPECT_NE(allowed.header("access-control-expose-headers").find("set-auth-jwt"), std::string::npos);
  auto other = get("/api/example/hello", {{"Origin", "https://evil.example.com"}});
  EXPECT_EQ(other.header("access-control-allow-origin"), "");
  auto preflight = httpRequest(docsd_->port(), "OPTIONS", "/api/example/notes", "",
                               {{"Origin", "https://app.example.com"},
                                {"Access-Control-Request-Method", "POST"},
                                {"Access-Control-Request-Headers", "authorization, content-type"}});
  EXPECT_EQ(preflight.status, 204);
  EXPECT_EQ(preflight.header("access-control-allow-origin"), "https://app.example.com");
  EXPECT_NE(preflight.header("access-control-allow-methods").find("PATCH"), std::string::npos);
  auto refused = httpRequest(docsd_->port(), "OPTIONS", "/api/example/notes", "",
                             {{"Origin", "https://evil.example.com"}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.header("access-control-allow-origin"), "");
}

TEST_F(ServerTest, ServesTheSpaWithFallbackAndNoTraversal) {
  docs::test::TempDir web;
  fs::create_directories(fs::path(web.path()) / "dist" / "assets");
  std::ofstream(fs::path(web.path()) / "dist" / "index.html") << "<!doctype html><div id=root></div>";
  std::ofstream(fs::path(web.path()) / "dist" / "assets" / "app-1.js") << "console.log('app')";
  std::ofstream(fs::path(web.path()) / "secret.txt") << "top secret";
  startServer({{"DOCS_SERVER_WEB_ROOT", web.path() + "/dist"}});
  EXPECT_NE(get("/").body.find("id=root"), std::string::npos);
  auto route = get("/projects/12/34");
  EXPECT_EQ(route.status, 200);
  EXPECT_NE(route.body.find("id=root"), std::string::npos);
  EXPECT_EQ(route.header("content-type"), "text/html; charset=utf-8");
  auto asset = get("/assets/app-1.js");
  EXPECT_EQ(asset.body, "console.log('app')");
  EXPECT_EQ(asset.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(get("/assets/missing.js").status, 404);
  for (const std::string& path :
       std::vector<std::string>{"/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt",
                                "/assets/%2e%2e/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt"}) {
    auto r = get(path);
    EXPECT_EQ(r.body.find("top secret"), std::string::npos) << path;
    EXPECT_TRUE(r.status == 404 || r.status == 400) << path << " " << r.status;
  }
  // Raw bytes that a client library would normalise.
  auto raw = docs::test::rawExchange(docsd_->port(),
                                     "GET /assets/../../secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                                     std::chrono::seconds(5));
  EXPECT_EQ(raw.find("top secret"), std::string::npos);
}

namespace {
// The value of one directive of a Content-Security-Policy ("" when absent).
std::string directive(const std::string& policy, const std::string& name) {
  std::size_t start = 0;
  while (start < policy.size()) {
    auto end = policy.find(';', start);
    std::string part = policy.substr(start, end == std::string::npos ? std::string::npos : end - start);
    auto b = part.find_first_not_of(' ');
    if (b != std::string::npos && part.compare(b, name.size() + 1, name + " ") == 0)
      return part.substr(b + name.size() + 1);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}
}  // namespace

TEST_F(ServerTest, BrowserSecurityHeadersOnTheSpaAndEveryAnswer) {
  docs::test::TempDir web;
  fs::create_directories(fs::path(web.path()) / "dist" / "assets");
  std::ofstream(fs::path(web.path()) / "dist" / "index.html") << "<!doctype html><div id=root></div>";
  std::ofstream(fs::path(web.path()) / "dist" / "assets" / "app-1.js") << "console.log('app')";
  startServer({{"DOCS_SERVER_WEB_ROOT", web.path() + "/dist"}});
  std::string self = "localhost:" + std::to_string(docsd_->port());
  for (const std::string& path :
       std::vector<std::string>{"/", "/projects/12/34", "/assets/app-1.js", "/assets/missing.js"}) {
    auto r = get(path);
    std::string csp = r.header("content-security-policy");
    EXPECT_EQ(directive(csp, "script-src"), "'self'") << path << ": " << csp;
    EXPECT_EQ(directive(csp, "object-src"), "'none'") << csp;
    EXPECT_EQ(directive(csp, "base-uri"), "'none'") << csp;
    EXPECT_EQ(directive(csp, "frame-ancestors"), "'none'") << csp;
    EXPECT_EQ(directive(csp, "img-src"), "'self' data: blob: https: http://" + self) << csp;
    EXPECT_EQ(directive(csp, "frame-src"), "https://www.youtube.com") << csp;
    // /config.json's addresses: the request's own origin, its collaboration socket too
    EXPECT_EQ(directive(csp, "connect-src"), "'self' http://" + self + " ws://" + self) << csp;
    EXPECT_EQ(r.header("x-frame-options"), "DENY") << path;
    EXPECT_EQ(r.header("referrer-policy"), "strict-origin-when-cross-origin") << path;
    EXPECT_EQ(r.header("cross-origin-opener-policy"), "same-origin-allow-popups") << path;
    EXPECT_EQ(r.header("strict-transport-security"), "") << "http public URL: no HSTS";
  }
  // Route answers (JSON, errors, health) may load and run nothing, and are never framed.
  for (const std::string& path :
       std::vector<std::string>{"/api/example/hello", "/api/no/such/route", "/healthz", "/config.json"}) {
    auto r = get(path);
    EXPECT_EQ(r.header("content-security-policy"),
              "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox")
        << path;
    EXPECT_EQ(r.header("x-frame-options"), "DENY") << path;
    EXPECT_EQ(r.header("referrer-policy"), "strict-origin-when-cross-origin") << path;
  }
  // A Host header that would add directives stays out of the policy.
  auto raw = docs::test::rawExchange(docsd_->port(),
                                     "GET / HTTP/1.1\r\nHost: evil.example;script-src *\r\nConnection: close\r\n\r\n",
                                     std::chrono::seconds(5));
  EXPECT_NE(raw.find("connect-src 'self'; frame-src"), std::string::npos) << raw.substr(0, 1500);
  EXPECT_EQ(raw.find("script-src *"), std::string::npos) << raw.substr(0, 1500);
}

TEST_F(ServerTest, BrowserSecurityHeadersFollowTheConfiguration) {
  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com/"}, {"DOCS_SERVER_SUBHOSTS", "true"}});
  auto spa = get("/");
  std::string csp = spa.header("content-security-policy");
  EXPECT_EQ(directive(csp, "connect-src"),
            "'self' https://api.docs.example.com https://auth.docs.example.com https://rag.docs.example.com "
            "wss://y.docs.example.com")
      << csp;
  EXPECT_EQ(directive(csp, "img-src"), "'self' data: blob: https:") << csp;
  EXPECT_EQ(spa.header("strict-transport-security"), "max-age=31536000");
  EXPECT_EQ(get("/healthz").header("strict-transport-security"), "max-age=31536000");
  docsd_.reset();

  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"},
               {"DOCS_SERVER_HSTS_MAX_AGE", "600"},
               {"DOCS_SERVER_HSTS_INCLUDE_SUBDOMAINS", "true"},
               {"DOCS_SERVER_CONTENT_SECURITY_POLICY", "default-src 'self'; frame-ancestors 'none'"}});
  spa = get("/");
  EXPECT_EQ(spa.header("content-security-policy"), "default-src 'self'; frame-ancestors 'none'");
  EXPECT_EQ(spa.header("strict-transport-security"), "max-age=600; includeSubDomains");
  EXPECT_EQ(directive(get("/api/example/hello").header("content-security-policy"), "default-src"), "'none'");
  docsd_.reset();

  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"},
               {"DOCS_SERVER_HSTS_MAX_AGE", "0"},
               {"DOCS_SERVER_CONTENT_SECURITY_POLICY", "off"}});
  spa = get("/");
  EXPECT_EQ(spa.header("content-security-policy"), "");
  EXPECT_EQ(spa.header("strict-transport-security"), "");
  EXPECT_EQ(spa.header("x-frame-options"), "DENY");
  docsd_.reset();

  // Sub-hosts over http (a test deployment): the API's images are named, https: misses them.
  startServer({{"DOCS_SERVER_PUBLIC_URL", "http://docs.test"}, {"DOCS_SERVER_SUBHOSTS", "true"}});
  csp = get("/").header("content-security-policy");
  EXPECT_EQ(directive(csp, "img-src"), "'self' data: blob: https: http://api.docs.test") << csp;
  EXPECT_EQ(directive(csp, "connect-src"),
            "'self' http://api.docs.test http://auth.docs.test http://rag.docs.test ws://y.docs.test")
      << csp;
  EXPECT_EQ(get("/").header("strict-transport-security"), "");
}

// /config.json and the CSP say only what the loaded plugins declared; /lab/ is an API's
// path only while rag (which declares it) is loaded.
TEST_F(ServerTest, TheWebAppIsToldWhatTheLoadedPluginsDeclare) {
  docs::test::TempDir web;
  fs::create_directories(fs::path(web.path()) / "dist");
  std::ofstream(fs::path(web.path()) / "dist" / "index.html") << "<!doctype html><div id=root></div>";
  startServer({{"DOCS_SERVER_WEB_ROOT", web.path() + "/dist"}, {"DOCS_PLUGINS_ENABLED", "projects,rbac,pages"}});
  std::string self = "localhost:" + std::to_string(docsd_->port());
  auto config = body(get("/config.json"));
  EXPECT_EQ(config["apiUrl"], "http://" + self);
  for (const char* key : {"authUrl", "ragUrl", "collabUrl", "githubAppSlug", "exampleGreeting"})
    EXPECT_FALSE(config.contains(key)) << key << ": " << config.dump();
  for (const char* name : {"projects", "rbac", "pages"}) EXPECT_EQ(config["features"][name], true) << name;
  for (const char* name : {"auth", "rag", "collab", "github", "example"})
    EXPECT_EQ(config["features"][name], false) << name;
  auto spa = get("/lab/x");
  EXPECT_EQ(spa.status, 200) << spa.body;
  EXPECT_EQ(spa.body, "<!doctype html><div id=root></div>");
  std::string csp = spa.header("content-security-policy");
  EXPECT_EQ(directive(csp, "connect-src"), "'self' http://" + self) << csp;
  docsd_.reset();

  startServer({{"DOCS_SERVER_WEB_ROOT", web.path() + "/dist"}, {"DOCS_EXAMPLE_GREETING", "hej"}});
  config = body(get("/config.json"));
  EXPECT_EQ(config["exampleGreeting"], "hej");  // the example plugin's clientSetting
  EXPECT_EQ(config["githubAppSlug"], "");
  expectError(get("/lab/x"), 404, "not_found");
}

namespace {
// The answers read from one connection, in order: each by its Content-Length (none of
// these answers a HEAD), until the server closes the connection.
std::vector<docs::test::HttpResponse> answersOf(const std::string& raw) {
  std::vector<docs::test::HttpResponse> answers;
  std::size_t at = 0;
  while (raw.compare(at, 7, "HTTP/1.") == 0) {
    auto headerEnd = raw.find("\r\n\r\n", at);
    if (headerEnd == std::string::npos) break;
    auto answer = docs::test::parseAnswerHead(std::string_view(raw).substr(at, headerEnd - at));
    std::size_t length = answer.headers.count("content-length") ? std::stoul(answer.headers["content-length"]) : 0;
    answer.body = raw.substr(headerEnd + 4, length);
    at = headerEnd + 4 + length;
    answers.push_back(std::move(answer));
  }
  return answers;
}
}  // namespace

// The order of the server's checks decides which answer a request gets: each request below
// would get another status, code or header if two checks were swapped. `keeps`: the
// connection stays open for a next request (sent behind it on the same connection), else
// the server closes it (a body it did not read).
TEST_F(ServerTest, TheOrderOfTheChecksDecidesEachAnswer) {
  startServer(
      {{"DOCS_SERVER_ALLOWED_ORIGINS", "https://app.example.com"}, {"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"}});
  const std::string ours = "Origin: https://app.example.com\r\n";
  const std::string evil = "Origin: https://evil.example\r\n";
  const std::string jsonType = "Content-Type: application/json\r\n";
  const std::string upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\n";
  struct Case {
    std::string what;
    std::string request;  // request line and headers
    std::string body;
    int status;
    std::string code;                            // the JSON error's, "" for none
    std::map<std::string, std::string> headers;  // "" for absent
    bool keeps;
  };
  const std::string preflightHeaders = "Authorization, Content-Type, Mode, filename, X-Request-Id";
  const std::vector<Case> cases = {
      {"a target that is no path, with our origin",
       "GET http://evil/x HTTP/1.1\r\n" + ours,
       "",
       400,
       "bad_request",
       {{"access-control-allow-origin", "https://app.example.com"}, {"vary", "Origin"}},
       true},
      {"a method the server does not know",
       "BREW /api/example/hello HTTP/1.1\r\n" + ours,
       "",
       405,
       "method_not_allowed",
       {{"access-control-allow-origin", "https://app.example.com"}, {"allow", ""}},
       true},
      {"a preflight before the built-in paths",
       "OPTIONS /healthz HTTP/1.1\r\n" + ours + "Access-Control-Request-Method: POST\r\n",
       "",
       204,
       "",
       {{"access-control-allow-origin", "https://app.example.com"},
        {"access-control-allow-methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"},
        {"access-control-allow-headers", preflightHeaders},
        {"access-control-max-age", "600"}},
       true},
      {"a preflight from another origin",
       "OPTIONS /api/example/hello HTTP/1.1\r\n" + evil + "Access-Control-Request-Method: POST\r\n",
       "",
       403,
       "forbidden",
       {{"access-control-allow-origin", ""}, {"access-control-allow-methods", ""}},
       true},
      {"OPTIONS that is no preflight reaches the built-in path",
       "OPTIONS /healthz HTTP/1.1\r\n" + ours,
       "",
       200,
       "",
       {{"access-control-allow-origin", "https://app.example.com"}},
       true},
      {"a built-in path answers any method", "POST /healthz HTTP/1.1\r\nContent-Length: 0\r\n", "", 200, "", {}, true},
      {"OPTIONS that is no preflight reaches the router",
       "OPTIONS /api/example/hello HTTP/1.1\r\n" + ours,
       "",
       405,
       "method_not_allowed",
       {{"allow", "GET"}},
       true},
      {"a WebSocket path without an upgrade is a path like others",
       "GET /api/example/ws HTTP/1.1\r\n",
       "",
       404,
       "not_found",
       {},
       true},
      {"an upgrade by POST is no upgrade",
       "POST /api/example/ws HTTP/1.1\r\n" + upgrade + "Content-Length: 0\r\n",
       "",
       404,
       "not_found",
       {},
       true},
      {"an upgrade without its key", "GET /api/example/ws HTTP/1.1\r\n" + upgrade, "", 400, "bad_handshake", {}, true},
      {"an unknown API path before the cross-site guard",
       "POST /api/nothing HTTP/1.1\r\n" + evil + "Content-Length: 0\r\n",
       "",
       404,
       "not_found",
       {},
       true},
      {"a wrong method before the cross-site guard",
       "DELETE /api/example/echo HTTP/1.1\r\n" + evil,
       "",
       405,
       "method_not_allowed",
       {{"allow", "POST"}},
       true},
      {"the cross-site guard before the body limit",
       "POST /api/example/echo HTTP/1.1\r\n" + evil + jsonType + "Content-Length: 2000000\r\n",
       "",
       403,
       "cross_site",
       {{"access-control-allow-origin", ""}},
       false},
      {"a form's body type",
       "POST /api/example/echo HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n",
       "",
       415,
       "unsupported_media_type",
       {},
       false},
      {"the route's limit before the caller check",
       "POST /api/example/echo HTTP/1.1\r\n" + jsonType + "Content-Length: 70000\r\n",
       "",
       413,
       "payload_too_large",
       {},
       false},
      {"a large body needs a caller",
       "POST /api/example/notes HTTP/1.1\r\n" + jsonType + "Content-Length: 100000\r\n",
       "",
       401,
       "unauthorized",
       {},
       false},
      {"a streamed upload needs no caller",
       "POST /api/example/upload HTTP/1.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n",
       std::string(100000, 'u'),
       200,
       "",
       {},
       true},
      {"our own origin through a trusted proxy",
       "POST /api/example/echo HTTP/1.1\r\nHost: docs.example.test\r\nOrigin: https://docs.example.test\r\n"
       "X-Forwarded-Proto: https\r\n" +
           jsonType + "Content-Length: 7\r\n",
       R"({"a":1})",
       200,
       "",
       {{"access-control-allow-origin", "https://docs.example.test"}},
       true},
      {"our own origin needs the proxy's scheme",
       "POST /api/example/echo HTTP/1.1\r\nHost: docs.example.test\r\nOrigin: https://docs.example.test\r\n" +
           jsonType + "Content-Length: 7\r\n",
       "",
       403,
       "cross_site",
       {{"access-control-allow-origin", ""}},
       false},
  };
  const std::string next = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  for (const auto& c : cases) {
    std::string request = c.request;
    if (request.find("\r\nHost:") == std::string::npos) request += "Host: localhost\r\n";
    auto answers = answersOf(docs::test::rawExchange(docsd_->port(), request + "\r\n" + c.body + (c.keeps ? next : ""),
                                                     std::chrono::seconds(20)));
    EXPECT_EQ(answers.size(), c.keeps ? 2u : 1u) << c.what;
    if (answers.empty()) continue;
    const auto& answer = answers.front();
    EXPECT_EQ(answer.status, c.status) << c.what << ": " << answer.body;
    EXPECT_EQ(answer.header("connection"), c.keeps ? "Keep-Alive" : "Close") << c.what;
    EXPECT_EQ(answer.header("x-content-type-options"), "nosniff") << c.what;
    EXPECT_FALSE(answer.header("x-request-id").empty()) << c.what;
    if (!c.code.empty()) {
      auto error = body(answer);
      EXPECT_EQ(error["error"]["code"], c.code) << c.what << ": " << answer.body;
      EXPECT_EQ(error["error"]["request_id"], answer.header("x-request-id")) << c.what;
    }
    for (const auto& [name, value] : c.headers) EXPECT_EQ(answer.header(name), value) << c.what << ": " << name;
    if (c.keeps) {
      EXPECT_EQ(answers.back().status, 200) << c.what;
    }
  }
}

// A HEAD answer is the GET answer's headers with no body: its length is the identity
// body's, never compressed, though a compressible answer still says it varies.
TEST_F(ServerTest, HeadAnswersAreGetsWithoutTheirBody) {
  startServer();
  auto whole = httpRequest(docsd_->port(), "GET", "/api/openapi.json");
  ASSERT_EQ(whole.status, 200);
  ASSERT_GE(whole.body.size(), 1024u);
  auto head = httpRequest(docsd_->port(), "HEAD", "/api/openapi.json", "", {{"Accept-Encoding", "gzip, br"}});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.header("content-length"), std::to_string(whole.body.size()));
  EXPECT_EQ(head.header("content-encoding"), "");
  EXPECT_EQ(head.header("vary"), "Accept-Encoding");
  EXPECT_EQ(head.header("content-type"), whole.header("content-type"));
}

// A body that ends before its Content-Length is an answer, and the connection is closed.
TEST_F(ServerTest, ABodyShorterThanItsLengthIsAnsweredAndClosed) {
  startServer();
  int fd = docs::test::connectTo(docsd_->port());
  ASSERT_GE(fd, 0);
  std::string request =
      "POST /api/example/echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
      "Content-Length: 10\r\n\r\n{}";
  ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
  ::shutdown(fd, SHUT_WR);
  std::string raw;
  char buffer[4096];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) raw.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  auto answers = answersOf(raw);
  ASSERT_EQ(answers.size(), 1u) << raw;
  EXPECT_EQ(answers[0].status, 408) << raw;
  EXPECT_EQ(body(answers[0])["error"]["code"], "body_timeout") << raw;
  EXPECT_EQ(answers[0].header("connection"), "Close");
}
