// The real docsd against the shared test cluster: health, routes, errors, CORS, SPA.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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
  docs::test::HttpResponse get(const std::string& path, std::map<std::string, std::string> headers = {}) {
    return httpRequest(docsd_->port(), "GET", path, "", headers);
  }
  docs::test::HttpResponse post(const std::string& path, const std::string& body,
                                std::map<std::string, std::string> headers = {{"Content-Type", "application/json"}}) {
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
  startServer({{"DOCS_SERVER_MODE", "stage"}, {"DOCS_GITHUB_APP_SLUG", "docs-app-test"}, {"DOCS_SITE_CONTACT_EMAIL", "sales@acme.example"}});
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
  EXPECT_EQ(body(post("/api/example/upload", std::string(3 << 20, 'z'), {{"Content-Type", "application/octet-stream"}}))["bytes"], 3 << 20);
  expectError(post("/api/example/upload", std::string(9 << 20, 'z'), {{"Content-Type", "application/octet-stream"}}), 413, "payload_too_large");
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
                               {{"Origin", "https://app.example.com"}, {"Access-Control-Request-Method", "POST"},
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
  for (const std::string& path : std::vector<std::string>{"/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt",
                                 "/assets/%2e%2e/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/..%5csecret.txt"}) {
    auto r = get(path);
    EXPECT_EQ(r.body.find("top secret"), std::string::npos) << path;
    EXPECT_TRUE(r.status == 404 || r.status == 400) << path << " " << r.status;
  }
  // Raw bytes that a client library would normalise.
  auto raw = docs::test::rawExchange(docsd_->port(), "GET /assets/../../secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
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
    if (b != std::string::npos && part.compare(b, name.size() + 1, name + " ") == 0) return part.substr(b + name.size() + 1);
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
  for (const std::string& path : std::vector<std::string>{"/", "/projects/12/34", "/assets/app-1.js", "/assets/missing.js"}) {
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
  for (const std::string& path : std::vector<std::string>{"/api/example/hello", "/api/no/such/route", "/healthz", "/config.json"}) {
    auto r = get(path);
    EXPECT_EQ(r.header("content-security-policy"),
              "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox") << path;
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
            "'self' https://api.docs.example.com https://auth.docs.example.com https://rag.docs.example.com wss://y.docs.example.com")
      << csp;
  EXPECT_EQ(directive(csp, "img-src"), "'self' data: blob: https:") << csp;
  EXPECT_EQ(spa.header("strict-transport-security"), "max-age=31536000");
  EXPECT_EQ(get("/healthz").header("strict-transport-security"), "max-age=31536000");
  docsd_.reset();

  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"}, {"DOCS_SERVER_HSTS_MAX_AGE", "600"},
               {"DOCS_SERVER_HSTS_INCLUDE_SUBDOMAINS", "true"},
               {"DOCS_SERVER_CONTENT_SECURITY_POLICY", "default-src 'self'; frame-ancestors 'none'"}});
  spa = get("/");
  EXPECT_EQ(spa.header("content-security-policy"), "default-src 'self'; frame-ancestors 'none'");
  EXPECT_EQ(spa.header("strict-transport-security"), "max-age=600; includeSubDomains");
  EXPECT_EQ(directive(get("/api/example/hello").header("content-security-policy"), "default-src"), "'none'");
  docsd_.reset();

  startServer({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"}, {"DOCS_SERVER_HSTS_MAX_AGE", "0"},
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
  EXPECT_EQ(directive(csp, "connect-src"), "'self' http://api.docs.test http://auth.docs.test http://rag.docs.test ws://y.docs.test") << csp;
  EXPECT_EQ(get("/").header("strict-transport-security"), "");
}
