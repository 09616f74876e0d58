// The fake host itself: it must pick routes, answer errors, resolve services and record
// events and jobs the way docsd does, or plugin tests built on it would lie.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <docs/testing/fake_host.hpp>

using docs::Json;
using docs::Method;
using docs::Request;
using docs::Response;
using docs::testing::FakeContext;
using docs::testing::FakeHost;
using docs::testing::FakeRegistry;

namespace {

struct Clock {
  static constexpr const char* kServiceId = "test.clock/1";
  int now = 0;
};
struct Weather {
  static constexpr const char* kServiceId = "test.weather/1";
};

// A database that runs no SQL: it keeps the scripts and commits unless the body throws.
class ScriptDb final : public docs::Db {
 public:
  std::vector<std::string> scripts;

  docs::Result exec(std::string_view, const docs::Params&) override { return {}; }
  void transaction(const std::function<void(docs::Tx&)>& body) override {
    ScriptTx tx(*this);
    body(tx);
    for (auto& hook : tx.hooks) hook();
  }

 private:
  struct ScriptTx final : docs::Tx {
    explicit ScriptTx(ScriptDb& owner) : db(owner) {}
    docs::Result exec(std::string_view, const docs::Params&) override { return {}; }
    void execScript(std::string_view sql) override { db.scripts.emplace_back(sql); }
    void afterCommit(std::function<void()> action) override { hooks.push_back(std::move(action)); }
    ScriptDb& db;
    std::vector<std::function<void()>> hooks;
  };
};

// Declares whatever the test puts in `declare`; logs its start and stop.
class ScriptedPlugin final : public docs::Plugin {
 public:
  std::function<void(docs::Registry&)> declare;
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    if (declare) declare(registry);
  }
  void start() override { context_->logger().info("started"); }
  void stop() override { context_->logger().info("stopped"); }

 private:
  docs::Context* context_ = nullptr;
};

void answerName(const std::string& name, Response& response) { response.json({{"route", name}}); }

}  // namespace

TEST(FakeRegistryCall, LiteralSegmentsBeatParametersAndParamsAndQueriesAreDecoded) {
  FakeContext context;
  FakeRegistry registry(context);
  registry.route(Method::Get, "/api/t/{id}", [](Request& request, Response& response) {
    response.json({{"id", request.idParam("id")}, {"q", request.query("q").value_or("")}});
  });
  registry.route(Method::Get, "/api/t/new", [](Request&, Response& response) { answerName("new", response); });
  EXPECT_EQ(registry.call(Method::Get, "/api/t/new").json()["route"], "new");
  EXPECT_EQ(registry.call(Method::Get, "/api/t/5?q=a%20b").json(), (Json{{"id", 5}, {"q", "a b"}}));
  EXPECT_EQ(registry.call(Method::Get, "/api//t/5/").status, 200) << "empty segments are dropped, as docsd drops them";
  EXPECT_EQ(registry.call(Method::Get, "/api/t/0").errorCode(), "invalid_id");
  EXPECT_THROW(registry.route(Method::Get, "/api/t/{other}", [](Request&, Response&) {}), std::invalid_argument);
  EXPECT_THROW(registry.route(Method::Get, "api/t", [](Request&, Response&) {}), std::invalid_argument);
}

TEST(FakeRegistryCall, AnotherMethodIs405WithAllowAndNoRouteA404) {
  FakeContext context;
  FakeRegistry registry(context);
  registry.route(Method::Get, "/api/x", [](Request&, Response& response) { response.noContent(); });
  registry.route(Method::Delete, "/api/x", [](Request&, Response& response) { response.noContent(); });
  auto post = registry.call(Method::Post, "/api/x");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.errorCode(), "method_not_allowed");
  EXPECT_EQ(post.header("allow"), "GET, DELETE");
  EXPECT_EQ(registry.call(Method::Get, "/api/y").status, 404);
  EXPECT_EQ(registry.call(Method::Head, "/api/x").status, 204);
}

TEST(FakeRegistryCall, TheCallerIsThePrincipalGivenAndFailuresAreDocsdsAnswers) {
  FakeContext context;
  FakeRegistry registry(context);
  registry.route(Method::Get, "/api/me", [](Request& request, Response& response) {
    response.json({{"user", request.requirePrincipal().userId}, {"agent", request.header("user-agent").value_or("")}});
  });
  registry.route(Method::Get, "/api/broken", [](Request&, Response&) { throw std::runtime_error("disk on fire"); });
  docs::Principal ada;
  ada.userId = "42";
  auto me = registry.call(Method::Get, "/api/me", "", {ada, {{"User-Agent", "test"}}});
  EXPECT_EQ(me.json(), (Json{{"user", "42"}, {"agent", "test"}}));
  EXPECT_EQ(registry.call(Method::Get, "/api/me").status, 401);
  auto broken = registry.call(Method::Get, "/api/broken");
  EXPECT_EQ(broken.status, 500);
  EXPECT_EQ(broken.errorCode(), "internal");
  EXPECT_EQ(broken.failure, "disk on fire");
  EXPECT_EQ(broken.json()["error"]["message"], "Internal server error")
      << "the message is docsd's, not the exception's";
}

TEST(FakeRegistryCall, ABodyOverTheLimitIs413AndAStreamingRouteReadsItInPieces) {
  FakeContext context;
  FakeRegistry registry(context);
  docs::RouteOptions small;
  small.maxBodyBytes = 10;
  registry.route(
      Method::Post, "/api/small", [](Request& request, Response& response) { response.text(request.body()); }, small);
  docs::RouteOptions stream;
  stream.streamBody = true;
  registry.route(
      Method::Post, "/api/stream",
      [](Request& request, Response& response) {
        std::string all;
        char piece[3];
        while (std::size_t n = request.bodyReader().read(piece, sizeof piece)) all.append(piece, n);
        response.text(all);
      },
      stream);
  EXPECT_EQ(registry.call(Method::Post, "/api/small", "0123456789").body, "0123456789");
  EXPECT_EQ(registry.call(Method::Post, "/api/small", "0123456789a").status, 413);
  EXPECT_EQ(registry.call(Method::Post, "/api/stream", "abcdefgh").body, "abcdefgh");
}

TEST(FakeConfig, DefaultsTheTestsValuesAndDocsdsReadingRules) {
  FakeContext context;
  context.set("demo.flag", "Yes");
  FakeRegistry registry(context);
  registry.configKey("demo.flag", "false", "a flag");
  registry.configKey("demo.list", " a, ,b ", "a list");
  registry.configKey("demo.count", "x", "a number");
  const auto& config = context.config();
  EXPECT_TRUE(config.getBool("demo.flag")) << "a value the test set before configure() wins over the default";
  EXPECT_EQ(config.getList("demo.list"), (std::vector<std::string>{"a", "b"}));
  EXPECT_THROW(config.getInt("demo.count"), std::invalid_argument);
  EXPECT_FALSE(config.has("demo.unknown"));
  EXPECT_THROW(config.getString("demo.unknown"), std::invalid_argument);
}

TEST(FakeRegistryResolve, FillsWhatTheTestProvidedAndNamesARequiredServiceNobodyDid) {
  FakeContext context("needy");
  FakeRegistry registry(context);
  docs::ServiceRef<Clock> clock;
  docs::ServiceRef<Weather> weather;
  registry.require(clock);
  registry.use(weather);
  try {
    registry.resolve();
    FAIL() << "a required service nobody provided must stop the start";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("needy requires test.clock/1"), std::string::npos) << error.what();
  }
  Clock given;
  given.now = 7;
  registry.provide(given);
  registry.resolve();
  EXPECT_EQ(clock->now, 7);
  EXPECT_FALSE(weather);
  EXPECT_EQ(weather.get(), nullptr);
}

TEST(FakeContextRecords, JobsAndEventsOnlyOnceTheirTransactionCommits) {
  FakeContext context;
  ScriptDb db;
  context.useDatabase(db);
  EXPECT_THROW(context.db().transaction([&](docs::Tx& tx) {
    context.jobs().enqueue(tx, {"kind", {{"n", 1}}});
    context.events().publishAfterCommit(tx, "topic", {{"n", 1}});
    throw std::runtime_error("roll back");
  }),
               std::runtime_error);
  EXPECT_TRUE(context.jobs().enqueued().empty());
  EXPECT_TRUE(context.events().published().empty());
  context.db().transaction([&](docs::Tx& tx) {
    context.jobs().enqueue(tx, {"kind", {{"n", 2}}});
    context.events().publishAfterCommit(tx, "topic", {{"n", 2}});
  });
  ASSERT_EQ(context.jobs().enqueued().size(), 1u);
  EXPECT_TRUE(context.jobs().enqueued()[0].inTransaction);
  EXPECT_EQ(context.events().payloadsOf("topic"), (std::vector<Json>{Json{{"n", 2}}}));
  EXPECT_TRUE(context.events().published()[0].afterCommit);
}

TEST(FakeContextRecords, AHeldDedupeKeyAnswersZeroUntilTheJobIsTaken) {
  FakeContext context;
  EXPECT_EQ(context.jobs().enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 1);
  EXPECT_EQ(context.jobs().enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0);
  EXPECT_EQ(context.jobs().take().size(), 1u);
  EXPECT_EQ(context.jobs().enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 2);
}

TEST(FakeContextRecords, TheDatabaseHandleThrowsUntilTheTestGivesOne) {
  FakeContext context("lonely");
  docs::Db& kept = context.db();
  try {
    kept.exec("SELECT 1");
    FAIL() << "no database was given";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("plugin lonely used the database"), std::string::npos);
  }
  ScriptDb db;
  context.useDatabase(db);
  EXPECT_NO_THROW(kept.exec("SELECT 1"));
}

TEST(FakeHostRun, WithADatabaseMigratesInVersionOrderStartsAndStops) {
  ScriptedPlugin plugin;
  plugin.declare = [](docs::Registry& registry) {
    registry.migration(2, "second", "SELECT 2");
    registry.migration(1, "first", "SELECT 1");
  };
  ScriptDb db;
  {
    FakeHost host("scripted");
    host.context().useDatabase(db);
    host.run(plugin);
    EXPECT_TRUE(host.started());
    EXPECT_EQ(db.scripts, (std::vector<std::string>{"SELECT 1", "SELECT 2"}));
    EXPECT_TRUE(host.context().logger().logged("started"));
  }
  FakeHost without("scripted");
  without.run(plugin);
  EXPECT_FALSE(without.started()) << "no database: configured and resolved only";
}

TEST(FakeRegistryDrive, PublishedEventsAndEnqueuedJobsRunUntilNothingNewComes) {
  FakeContext context;
  FakeRegistry registry(context);
  std::vector<int> seen;
  registry.subscribe("count", [&](const Json& payload) {
    int n = payload.at("n").get<int>();
    seen.push_back(n);
    if (n < 3) context.jobs().enqueue({"next", {{"n", n + 1}}});
  });
  registry.jobHandler("next", [&](docs::JobContext& job) { context.events().publish("count", job.payload()); });
  EXPECT_EQ(registry.deliver("count", {{"n", 1}}), 1u);
  EXPECT_EQ(registry.runEnqueuedJobs(), 1u);
  EXPECT_EQ(registry.deliverPublished(), 1u);
  EXPECT_EQ(registry.runEnqueuedJobs(), 1u);
  EXPECT_EQ(registry.deliverPublished(), 1u);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));
  EXPECT_THROW(registry.runJob("unknown", {}), std::out_of_range);

  registry.subscribe("echo", [&](const Json& payload) { context.events().publish("echo", payload); });
  registry.deliver("echo", {});
  EXPECT_THROW(registry.deliverPublished(), std::logic_error) << "a plugin that answers every event with another";
}

TEST(FakeRegistryDrive, CommandsAndClientSettingsAndPeriodics) {
  FakeContext context;
  FakeRegistry registry(context);
  int ticks = 0;
  registry.periodic("tick", {}, [&] { ++ticks; });
  registry.clientSetting("demoSetting", [] { return Json(3); });
  EXPECT_THROW(registry.clientSetting("features", [] { return Json(); }), std::invalid_argument);
  docs::Command greet;
  greet.name = "demo-greet";
  greet.run = [](const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    out << "hi " << args.at(0);
    return 3;
  };
  registry.command(greet);
  registry.runPeriodic("tick");
  EXPECT_EQ(ticks, 1);
  EXPECT_EQ(registry.clientSettingValue("demoSetting"), Json(3));
  std::ostringstream out, err;
  EXPECT_EQ(registry.runCommand("demo-greet", {"you"}, out, err), 3);
  EXPECT_EQ(out.str(), "hi you");
}

TEST(LoadPlugin, RefusesWhatDocsdRefusesAndNamesTheFile) {
  for (std::string broken : {"wrong_abi/wrong_abi.so", "no_manifest/no_manifest.so", "not_a_library/broken.so"}) {
    std::string path = std::string(DOCS_TEST_PLUGINS) + "/" + broken;
    try {
      docs::testing::loadPlugin(path);
      FAIL() << path << " must be refused";
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
    }
  }
  auto good = docs::testing::loadPlugin(std::string(DOCS_TEST_PLUGINS) + "/good/second.so");
  ASSERT_NE(good.plugin, nullptr);
  EXPECT_EQ(good.manifest->abi, docs::kPluginAbi);
}

TEST(FakeHostRun, TheJobQueueEventBusAndDatabaseRefuseToBeUsedDuringConfigure) {
  for (std::string what : {"the job queue", "the event bus", "the database"}) {
    ScriptedPlugin plugin;
    plugin.declare = [&](docs::Registry& registry) {
      auto& context = registry.context();
      if (what == "the job queue") context.jobs().enqueue({"early"});
      else if (what == "the event bus") context.events().publish("early", {});
      else context.db().exec("SELECT 1");
    };
    ScriptDb db;
    FakeHost host("eager");
    host.context().useDatabase(db);
    try {
      host.run(plugin);
      FAIL() << what << " must be refused during configure()";
    } catch (const std::logic_error& error) {
      EXPECT_EQ(std::string(error.what()), "plugin eager used " + what + " during configure()");
    }
    EXPECT_NO_THROW(host.context().jobs().enqueue({"later"})) << "usable again once configure() returned";
  }
}
