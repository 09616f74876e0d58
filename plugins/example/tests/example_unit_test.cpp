// The example plugin in the SDK's fake host: the built example.so, configured and called
// on the test's thread, with no docsd and no database.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <docs/testing/fake_host.hpp>

using docs::Json;
using docs::Method;

namespace {

class ExamplePluginTest : public ::testing::Test {
 protected:
  // Settings the test gives before configure(), as DOCS_* would.
  void load(const std::map<std::string, std::string>& settings = {}) {
    for (auto& [key, value] : settings) host_.context().set(key, value);
    host_.run(*plugin_.plugin);
  }
  docs::testing::FakeRegistry& registry() { return host_.registry(); }

  docs::testing::LoadedPlugin plugin_ = docs::testing::loadPlugin(DOCS_EXAMPLE_PLUGIN);
  docs::testing::FakeHost host_{"example"};
};

TEST_F(ExamplePluginTest, TheManifestNamesAnOptInPlugin) {
  EXPECT_STREQ(plugin_.manifest->name, "example");
  EXPECT_STREQ(plugin_.manifest->version, "1.0.0");
  EXPECT_EQ(plugin_.manifest->flags & docs::kPluginOptIn, docs::kPluginOptIn);
}

TEST_F(ExamplePluginTest, DeclaresWhatItsReadmeLists) {
  load();
  const std::vector<std::pair<Method, std::string>> routes = {
      {Method::Get, "/api/example/hello"},  {Method::Post, "/api/example/echo"},
      {Method::Post, "/api/example/notes"}, {Method::Get, "/api/example/notes/{id}"},
      {Method::Get, "/api/example/stats"},  {Method::Post, "/api/example/upload"},
      {Method::Post, "/api/example/slow"}};
  for (const auto& [method, path] : routes) EXPECT_NE(registry().findRoute(method, path), nullptr) << path;
  EXPECT_EQ(registry().routes().size(), 7u);
  ASSERT_EQ(registry().websockets().size(), 1u);
  EXPECT_EQ(registry().websockets()[0].path, "/api/example/ws");
  ASSERT_EQ(registry().migrations().size(), 1u);
  EXPECT_EQ(registry().migrations()[0].version, 1);
  EXPECT_EQ(registry().jobHandlers().count("example.process_note"), 1u);
  EXPECT_EQ(registry().jobHandlers().count("example.slow"), 1u);
  ASSERT_EQ(registry().subscriptions().size(), 1u);
  EXPECT_EQ(registry().subscriptions()[0].topic, "example.note_processed");
  ASSERT_EQ(registry().commands().size(), 1u);
  EXPECT_EQ(registry().commands()[0].name, "example-greet");
  EXPECT_EQ(registry().clientSettingKeys(), std::vector<std::string>{"exampleGreeting"});
  EXPECT_TRUE(registry().needs().empty());
  EXPECT_TRUE(registry().providedServices().empty());
  // Every route describes itself for GET /api/openapi.json.
  for (const auto& route : registry().routes()) EXPECT_FALSE(route.doc.summary.empty()) << route.pathTemplate;
}

TEST_F(ExamplePluginTest, ItsConfigKeysHaveDefaultsAndTheTestsValuesWin) {
  load({{"example.tick_ms", "250"}});
  const auto* greeting = registry().findConfigKey("example.greeting");
  ASSERT_NE(greeting, nullptr);
  EXPECT_EQ(greeting->defaultValue, "hello");
  EXPECT_FALSE(greeting->description.empty());
  ASSERT_NE(registry().findConfigKey("example.tick_ms"), nullptr);
  EXPECT_EQ(host_.context().config().getString("example.greeting"), "hello");
  ASSERT_EQ(registry().periodics().size(), 1u);
  EXPECT_EQ(registry().periodics()[0].name, "tick");
  EXPECT_EQ(registry().periodics()[0].options.interval, std::chrono::milliseconds(250));
}

TEST_F(ExamplePluginTest, HelloAnswersTheConfiguredGreeting) {
  load({{"example.greeting", "good morning"}});
  auto answer = registry().call(Method::Get, "/api/example/hello");
  ASSERT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(answer.json(), (Json{{"message", "good morning"}, {"plugin", "example"}}));
  EXPECT_EQ(answer.header("content-type"), "application/json; charset=utf-8");
  // HEAD is served by the GET route; another method is a 405 naming the allowed one.
  EXPECT_EQ(registry().call(Method::Head, "/api/example/hello").status, 200);
  auto put = registry().call(Method::Put, "/api/example/hello");
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("Allow"), "GET");
  EXPECT_EQ(registry().call(Method::Get, "/api/example/nothing").status, 404);
}

TEST_F(ExamplePluginTest, TheWebAppIsToldTheGreeting) {
  load({{"example.greeting", "ahoy"}});
  EXPECT_EQ(registry().clientSettingValue("exampleGreeting"), Json("ahoy"));
}

TEST_F(ExamplePluginTest, EchoAnswersAnObjectAndRefusesAnythingElse) {
  load();
  auto answer = registry().call(Method::Post, "/api/example/echo", R"({"a":[1,2],"b":"c"})");
  ASSERT_EQ(answer.status, 200);
  EXPECT_EQ(answer.json(), (Json{{"a", {1, 2}}, {"b", "c"}}));
  auto array = registry().call(Method::Post, "/api/example/echo", "[1]");
  EXPECT_EQ(array.status, 400);
  EXPECT_EQ(array.errorCode(), "invalid_json");
  auto tooLarge = registry().call(Method::Post, "/api/example/echo", std::string(64 * 1024 + 1, ' '));
  EXPECT_EQ(tooLarge.status, 413);
  EXPECT_EQ(tooLarge.errorCode(), "payload_too_large");
}

TEST_F(ExamplePluginTest, ANoteNeedsTextAndAnIdMustBeAPositiveInteger) {
  load();
  auto empty = registry().call(Method::Post, "/api/example/notes", R"({"text":""})");
  EXPECT_EQ(empty.status, 400);
  EXPECT_EQ(empty.errorCode(), "invalid_field");
  auto badId = registry().call(Method::Get, "/api/example/notes/abc");
  EXPECT_EQ(badId.status, 400);
  EXPECT_EQ(badId.errorCode(), "invalid_id");
  // A valid note reaches the database, which this host was not given: docsd's 500, and why.
  auto stored = registry().call(Method::Post, "/api/example/notes", R"({"text":"x"})");
  EXPECT_EQ(stored.status, 500);
  EXPECT_EQ(stored.errorCode(), "internal");
  EXPECT_NE(stored.failure.find("useDatabase"), std::string::npos) << stored.failure;
}

TEST_F(ExamplePluginTest, SlowQueuesAJobWithinItsBounds) {
  load();
  auto refused = registry().call(Method::Post, "/api/example/slow", R"({"ms":60001})");
  EXPECT_EQ(refused.status, 400);
  EXPECT_TRUE(host_.context().jobs().enqueued().empty());
  auto queued = registry().call(Method::Post, "/api/example/slow", R"({"ms":5})");
  ASSERT_EQ(queued.status, 202) << queued.body;
  auto jobs = host_.context().jobs().enqueued();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(queued.json()["job"], jobs[0].id);
  EXPECT_EQ(jobs[0].spec.kind, "example.slow");
  EXPECT_EQ(jobs[0].spec.payload, (Json{{"ms", 5}, {"after_stop", false}}));
  EXPECT_FALSE(jobs[0].inTransaction);
  ASSERT_EQ(registry().call(Method::Post, "/api/example/slow", R"({"ms":5,"after_stop":true})").status, 202);
  EXPECT_EQ(host_.context().jobs().enqueued().at(1).spec.payload, (Json{{"ms", 5}, {"after_stop", true}}));
}

TEST_F(ExamplePluginTest, UploadStreamsTheBodyUpToItsLimit) {
  load();
  auto answer = registry().call(Method::Post, "/api/example/upload", std::string(200000, 'x'));
  ASSERT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(answer.json()["bytes"], 200000);
  EXPECT_EQ(registry().call(Method::Post, "/api/example/upload", std::string((8 << 20) + 1, 'x')).status, 413);
}

TEST_F(ExamplePluginTest, TheProcessedNoteEventReachesItsSubscriber) {
  load();
  EXPECT_EQ(registry().deliver("example.note_processed", {{"id", 1}}), 1u);
  EXPECT_EQ(registry().deliver("nobody.listens", Json::object()), 0u);
}

TEST_F(ExamplePluginTest, TheGreetCommandRunsWithoutAServer) {
  load({{"example.greeting", "hi"}});
  std::ostringstream out, err;
  EXPECT_EQ(registry().runCommand("example-greet", {"Ada"}, out, err), 0);
  EXPECT_EQ(out.str(), "hi, Ada\n");
  EXPECT_EQ(registry().runCommand("example-greet", {"a", "b"}, out, err), 64);
  EXPECT_NE(err.str().find("usage"), std::string::npos);
}

TEST_F(ExamplePluginTest, WithoutADatabaseItIsConfiguredButNotStarted) {
  load();
  EXPECT_FALSE(host_.started());
  EXPECT_FALSE(host_.context().logger().logged("example plugin started"));
}

}  // namespace
