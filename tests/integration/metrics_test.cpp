// GET /metrics from the real docsd, read by the Prometheus project's own text-format parser
// (prometheus_client.parser, tests/metrics/scrape.py): counters move with traffic, no label
// carries an id, every series is documented and the Grafana dashboard asks only for series
// that exist, and only loopback, metrics.allowed_cidrs or metrics.token may read.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

// One parsed scrape: the families (name -> type) and every sample.
struct Scrape {
  std::map<std::string, std::string> types;
  json samples = json::array();
  bool ok = false;

  // The sum of the samples named `name` whose labels include `labels` (0 when none).
  double value(const std::string& name, const json& labels = json::object()) const {
    double sum = 0;
    for (const auto& sample : samples) {
      if (sample["name"] != name) continue;
      bool match = true;
      for (const auto& [key, wanted] : labels.items())
        if (sample["labels"].value(key, std::string("\x01")) != wanted) match = false;
      if (match) sum += sample["value"].get<double>();
    }
    return sum;
  }
};

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class Metrics : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_EXAMPLE_TICK_MS", "200");
    Docsd::Options options;
    options.env = std::move(env);
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(std::move(options));
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  // Through the parser; fails the test when it cannot parse the answer.
  Scrape scrape(const json& headers = json::object()) {
    std::string url = "http://127.0.0.1:" + std::to_string(docsd_->port()) + "/metrics";
    // Debian's python, where python3-prometheus-client is (not a python earlier on PATH).
    auto [code, output] = docs::test::runCommand(
        {"/usr/bin/python3", docs::test::sourceDir() + "/tests/metrics/scrape.py", url, headers.dump()});
    EXPECT_EQ(code, 0) << output;
    Scrape out;
    auto parsed = json::parse(output, nullptr, false);
    if (code != 0 || !parsed.is_object()) return out;
    for (const auto& family : parsed["families"])
      out.types[family["name"].get<std::string>()] = family["type"].get<std::string>();
    out.samples = parsed["samples"];
    out.ok = true;
    return out;
  }
  docs::test::HttpResponse get(const std::string& path, const std::map<std::string, std::string>& headers = {}) {
    return httpRequest(docsd_->port(), "GET", path, "", headers);
  }
  docs::test::HttpResponse post(const std::string& path, const std::string& body) {
    return httpRequest(docsd_->port(), "POST", path, body, {{"Content-Type", "application/json"}});
  }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
};

}  // namespace

TEST_F(Metrics, CountersMoveWithTraffic) {
  start();
  auto before = scrape();
  ASSERT_TRUE(before.ok);
  const std::map<std::string, std::string> expected = {{"docsd_http_requests_total", "counter"},
                                                       {"docsd_http_request_duration_seconds", "histogram"},
                                                       {"docsd_http_requests_in_flight", "gauge"},
                                                       {"docsd_websockets_open", "gauge"},
                                                       {"docsd_jobs", "gauge"},
                                                       {"docsd_jobs_claimed_total", "counter"},
                                                       {"docsd_jobs_failed_total", "counter"},
                                                       {"docsd_job_duration_seconds", "histogram"},
                                                       {"docsd_db_pool_in_use", "gauge"},
                                                       {"docsd_db_pool_waits_total", "counter"},
                                                       {"docsd_event_delivery_lag_seconds", "histogram"},
                                                       {"docsd_process_cpu_seconds_total", "counter"},
                                                       {"docsd_process_resident_memory_bytes", "gauge"},
                                                       {"docsd_process_open_fds", "gauge"},
                                                       {"docsd_collab_rooms_open", "gauge"},
                                                       {"docsd_collab_updates_applied_total", "counter"},
                                                       {"docsd_collab_commit_batch_updates", "histogram"},
                                                       {"docsd_collab_commit_seconds", "histogram"},
                                                       {"docsd_collab_relay_lag_seconds", "histogram"},
                                                       {"docsd_generation_stages_total", "counter"},
                                                       {"docsd_generation_stage_seconds", "histogram"},
                                                       {"docsd_rag_queries_total", "counter"},
                                                       {"docsd_rag_query_seconds", "histogram"},
                                                       {"docsd_auth_sign_ins_total", "counter"},
                                                       {"docsd_auth_codes_sent_total", "counter"},
                                                       {"docsd_example_notes_created_total", "counter"}};
  for (const auto& [name, type] : expected) {
    ASSERT_TRUE(before.types.count(name)) << name;
    EXPECT_EQ(before.types.at(name), type) << name;
  }
  EXPECT_GT(before.value("docsd_process_resident_memory_bytes"), 1e6);
  EXPECT_GT(before.value("docsd_process_open_fds"), 3);
  EXPECT_GT(before.value("docsd_db_pool_size"), 0);
  EXPECT_EQ(before.value("docsd_collab_rooms_open"), 0);

  const json hello = {{"route", "/api/example/hello"}, {"method", "GET"}, {"status", "200"}};
  for (int i = 0; i < 3; ++i) ASSERT_EQ(get("/api/example/hello").status, 200);
  // Ids in the path are counted under the route's template, never as themselves.
  EXPECT_EQ(get("/api/example/notes/987654321").status, 404);
  EXPECT_EQ(get("/api/no/such/987654321").status, 404);
  auto created = post("/api/example/notes", R"({"text":"count me"})");
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(post("/api/example/notes", R"({"text":""})").status, 400);
  docs::test::WsClient socket;
  ASSERT_TRUE(socket.connect(docsd_->port(), "/api/example/ws"));
  // The plugins' own: a code mailed and a sign-in, a wrong code, a malformed question.
  docs::test::signInByEmail(*docsd_, "metrics-alice@example.com");
  EXPECT_EQ(post("/api/auth/sign-in/email-otp", R"({"email":"metrics-alice@example.com","otp":"000000"})").status, 400);
  EXPECT_EQ(post("/lab/rag", "{nope").status, 400);

  // The job and the socket are counted as they happen: scrape until they show.
  Scrape after;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  do {
    after = scrape();
    if (after.value("docsd_job_duration_seconds_count", {{"kind", "example.process_note"}, {"outcome", "done"}}) >= 1 &&
        after.value("docsd_websockets_open") >= 1)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (std::chrono::steady_clock::now() < deadline);
  ASSERT_TRUE(after.ok);

  EXPECT_EQ(after.value("docsd_http_requests_total", hello) - before.value("docsd_http_requests_total", hello), 3);
  const json helloRoute = {{"route", "/api/example/hello"}, {"method", "GET"}};
  EXPECT_EQ(after.value("docsd_http_request_duration_seconds_count", helloRoute) -
                before.value("docsd_http_request_duration_seconds_count", helloRoute),
            3);
  EXPECT_EQ(
      after.value("docsd_http_request_duration_seconds_bucket", {{"route", "/api/example/hello"}, {"le", "+Inf"}}),
      after.value("docsd_http_request_duration_seconds_count", helloRoute));
  EXPECT_EQ(after.value("docsd_http_requests_total", {{"route", "/api/example/notes/{id}"}, {"status", "404"}}), 1);
  EXPECT_GE(after.value("docsd_http_requests_total", {{"route", "unmatched"}, {"status", "404"}}), 1);
  EXPECT_EQ(after.value("docsd_http_requests_total", {{"route", "/api/example/ws"}, {"status", "101"}}), 1);
  EXPECT_EQ(after.value("docsd_example_notes_created_total", {{"outcome", "created"}}), 1);
  EXPECT_EQ(after.value("docsd_example_notes_created_total", {{"outcome", "refused"}}), 1);
  EXPECT_GE(after.value("docsd_jobs_claimed_total", {{"kind", "example.process_note"}}), 1);
  EXPECT_EQ(after.value("docsd_jobs_failed_total", {{"kind", "example.process_note"}}), 0);
  EXPECT_EQ(after.value("docsd_websockets_open"), 1);
  EXPECT_GE(after.value("docsd_http_requests_total", {{"route", "/metrics"}}), 1);
  EXPECT_GE(after.value("docsd_http_requests_in_flight"), 1);           // the scrape itself
  EXPECT_GE(after.value("docsd_event_delivery_lag_seconds_count"), 1);  // the example's events, delivered
  EXPECT_GT(after.value("docsd_process_cpu_seconds_total"), 0);
  EXPECT_GE(after.value("docsd_db_pool_open"), 1);
  EXPECT_EQ(after.value("docsd_auth_codes_sent_total", {{"purpose", "sign_in"}, {"outcome", "sent"}}), 1);
  EXPECT_EQ(after.value("docsd_auth_sign_ins_total", {{"method", "email_otp"}, {"outcome", "signed_in"}}), 1);
  EXPECT_EQ(after.value("docsd_auth_sign_ins_total", {{"method", "email_otp"}, {"outcome", "refused"}}), 1);
  EXPECT_EQ(after.value("docsd_rag_queries_total", {{"via", "http"}, {"outcome", "refused"}}), 1);
  EXPECT_EQ(after.value("docsd_rag_query_seconds_count", {{"via", "http"}}), 1);
  // No label value names a user, a page, a project or anything else taken from a request.
  for (const auto& sample : after.samples)
    for (const auto& [key, label] : sample["labels"].items()) {
      auto text = label.get<std::string>();
      EXPECT_EQ(text.find("987654321"), std::string::npos) << sample.dump();
      EXPECT_EQ(text.find("metrics-alice"), std::string::npos) << sample.dump();
    }

  socket.close();
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (scrape().value("docsd_websockets_open") != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(scrape().value("docsd_websockets_open"), 0);
}

TEST_F(Metrics, EverySeriesIsDocumentedAndTheDashboardAsksForRealOnes) {
  start();
  auto scraped = scrape();
  ASSERT_TRUE(scraped.ok);
  std::string reference = readFile(docs::test::sourceDir() + "/docs/metrics.md");
  for (const auto& [name, type] : scraped.types)
    EXPECT_NE(reference.find("| `" + name + "` | " + type), std::string::npos) << name;

  std::string dashboard = readFile(docs::test::sourceDir() + "/docs/grafana-dashboard.json");
  auto parsed = json::parse(dashboard, nullptr, false);
  ASSERT_TRUE(parsed.is_object() && parsed["panels"].is_array());
  static const std::regex series("docsd_[a-z_]+");
  std::set<std::string> asked;
  for (const auto& panel : parsed["panels"])
    for (const auto& target : panel.value("targets", json::array())) {
      std::string expr = target.value("expr", "");
      for (std::sregex_iterator it(expr.begin(), expr.end(), series), end; it != end; ++it) asked.insert(it->str());
    }
  EXPECT_GE(asked.size(), 20u);
  for (std::string name : asked) {
    for (const char* suffix : {"_bucket", "_sum", "_count"})
      if (name.size() > std::strlen(suffix) && name.ends_with(suffix) && !scraped.types.count(name))
        name.resize(name.size() - std::strlen(suffix));
    EXPECT_TRUE(scraped.types.count(name)) << "the dashboard asks for " << name;
  }
}

TEST_F(Metrics, OnlyLoopbackAllowedNetworksOrTheTokenMayRead) {
  // Through a trusted proxy on loopback the client is the forwarded address, not 127.0.0.1.
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"},
         {"DOCS_METRICS_ALLOWED_CIDRS", "203.0.113.0/24, 2001:db8::/32"},
         {"DOCS_METRICS_TOKEN", "metrics-secret-1"}});
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "127.0.0.1"}}).status, 200);
  EXPECT_EQ(get("/metrics", {{"Authorization", "Bearer metrics-secret-1"}}).status, 200);  // no client named, the token
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "203.0.113.7"}}).status, 200);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "2001:db8::5"}}).status, 200);
  auto stranger = get("/metrics", {{"X-Forwarded-For", "198.51.100.1"}});
  EXPECT_EQ(stranger.status, 404);
  EXPECT_EQ(json::parse(stranger.body, nullptr, false)["error"]["code"], "not_found");
  EXPECT_EQ(stranger.body.find("docsd_"), std::string::npos);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "198.51.100.1"}, {"Authorization", "Bearer metrics-secret-1"}}).status,
            200);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "198.51.100.1"}, {"Authorization", "Bearer metrics-secret-2"}}).status,
            404);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "198.51.100.1"}, {"Authorization", "metrics-secret-1"}}).status, 404);
  // Only GET and HEAD: another method is the path that does not exist.
  EXPECT_EQ(httpRequest(docsd_->port(), "POST", "/metrics", "", {}).status, 404);
  // The parser reads the token-opened answer too.
  auto families = scrape({{"X-Forwarded-For", "198.51.100.1"}, {"Authorization", "Bearer metrics-secret-1"}});
  EXPECT_TRUE(families.types.count("docsd_http_requests_total"));
}

// Issue 33 item 7: behind a local proxy nobody declared, every outside request comes from
// loopback; one that says it was forwarded is from an unknown client, not loopback.
TEST_F(Metrics, AForwardedRequestThroughAnUndeclaredProxyIsNoLoopbackRead) {
  start({{"DOCS_METRICS_TOKEN", "metrics-secret-1"}});
  EXPECT_EQ(get("/metrics").status, 200);  // loopback itself
  for (const char* header : {"X-Forwarded-For", "Forwarded", "X-Real-IP"}) {
    auto forwarded =
        get("/metrics", {{header, header == std::string("Forwarded") ? "for=198.51.100.1" : "198.51.100.1"}});
    EXPECT_EQ(forwarded.status, 404) << header;
    EXPECT_EQ(forwarded.body.find("docsd_"), std::string::npos) << header;
    // Nor does naming loopback help: the header is the stranger's to write.
    EXPECT_EQ(get("/metrics", {{header, header == std::string("Forwarded") ? "for=127.0.0.1" : "127.0.0.1"}}).status,
              404)
        << header;
  }
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "198.51.100.1"}, {"Authorization", "Bearer metrics-secret-1"}}).status,
            200);  // the token still opens it
}

TEST_F(Metrics, WithoutSettingsOnlyLoopbackMayRead) {
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"}});
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "127.0.0.1"}}).status, 200);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "::1"}}).status, 200);
  // A trusted proxy that names no client: unknown, so not loopback (the proxy's address).
  EXPECT_EQ(get("/metrics").status, 404);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", " , "}}).status, 404);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "10.0.0.1"}}).status, 404);
  EXPECT_EQ(get("/metrics", {{"X-Forwarded-For", "10.0.0.1"}, {"Authorization", "Bearer "}}).status, 404);
}

TEST(MetricsSettings, AMalformedNetworkIsAConfigurationErrorBeforeAnythingStarts) {
  docs::test::TempDir dir;
  auto [code, out] = docs::test::runCommand({docs::test::buildDir() + "/bin/docsd", "serve"},
                                            {{"DOCS_DATA_DIR", dir.path() + "/data"},
                                             {"DOCS_PORT", "0"},
                                             {"DOCS_METRICS_ALLOWED_CIDRS", "10.0.0.0/8, 10.0.0.0/33"}});
  EXPECT_EQ(code, 78) << out;
  EXPECT_NE(out.find("'10.0.0.0/33' is not an address or CIDR"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/data"));  // no database, no lock, nothing written
}
