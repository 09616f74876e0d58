// Starting and stopping: embedded PostgreSQL, kill -9, a second docsd, plugin selection,
// refusals, and the operator commands.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

std::string pluginCase(const std::string& name) { return docs::test::pluginFixturesDir() + "/" + name; }

// A plugins directory holding the example plugin plus the given fixture plugins.
std::string pluginsWith(const docs::test::TempDir& dir, const std::vector<std::string>& fixtureFiles) {
  fs::path plugins = fs::path(dir.path()) / "plugins";
  fs::create_directories(plugins);
  fs::copy_file(docs::test::buildDir() + "/plugins/example.so", plugins / "example.so");
  for (const auto& file : fixtureFiles) fs::copy_file(pluginCase(file), plugins / fs::path(file).filename());
  return plugins.string();
}

std::int64_t createNote(int port, const std::string& text) {
  auto r = httpRequest(port, "POST", "/api/example/notes", json{{"text", text}}.dump(),
                       {{"Content-Type", "application/json"}});
  return r.status == 201 ? json::parse(r.body)["id"].get<std::int64_t>() : -1;
}

}  // namespace

TEST(Lifecycle, EmbeddedPostgresSurvivesKill9AndRefusesASecondDocsd) {
  docs::test::TempDir data;
  Docsd first({{}, {"serve"}, data.path(), ""});
  ASSERT_TRUE(first.start(std::chrono::seconds(120))) << first.log();
  auto id = createNote(first.port(), "survives a crash");
  ASSERT_GT(id, 0);

  // A second docsd on the same data dir is refused, clearly, and changes nothing.
  Docsd second({{}, {"serve"}, data.path(), ""});
  EXPECT_FALSE(second.start(std::chrono::seconds(30)));
  EXPECT_NE(second.log().find("already using the data directory"), std::string::npos) << second.log();
  EXPECT_EQ(httpRequest(first.port(), "GET", "/api/example/notes/" + std::to_string(id)).status, 200);

  // kill -9 leaves the postmaster orphaned; the next docsd adopts it.
  first.kill9();
  Docsd third({{}, {"serve"}, data.path(), ""});
  ASSERT_TRUE(third.start(std::chrono::seconds(120))) << third.log();
  auto note = httpRequest(third.port(), "GET", "/api/example/notes/" + std::to_string(id));
  EXPECT_EQ(note.status, 200) << note.body;
  EXPECT_EQ(json::parse(note.body, nullptr, false).value("text", ""), "survives a crash");
  EXPECT_EQ(third.terminate(), 0) << third.log();
  EXPECT_NE(third.log().find("embedded PostgreSQL stopped"), std::string::npos) << third.log();
}

// The embedded cluster runs with a minimal environment: docsd's secrets are not in the
// postmaster's /proc/<pid>/environ, its locale is.
TEST(Lifecycle, TheEmbeddedPostgresInheritsNoSecrets) {
  docs::test::TempDir data;
  Docsd docsd({{{"DOCS_LLM_API_KEY", "sk-never-in-postgres"},
                {"DOCS_METRICS_TOKEN", "metrics-never-in-postgres"},
                {"LC_MESSAGES", "C"}},
               {"serve"},
               data.path(),
               ""});
  ASSERT_TRUE(docsd.start(std::chrono::seconds(120))) << docsd.log();
  std::ifstream pidFile(data.path() + "/pg/data/postmaster.pid");
  pid_t postmaster = 0;
  pidFile >> postmaster;
  ASSERT_GT(postmaster, 0);
  std::ifstream in("/proc/" + std::to_string(postmaster) + "/environ", std::ios::binary);
  std::string environment((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(environment.empty());
  EXPECT_EQ(environment.find("never-in-postgres"), std::string::npos);
  EXPECT_EQ(environment.find("DOCS_"), std::string::npos);
  EXPECT_NE(environment.find("PATH="), std::string::npos);
  EXPECT_NE(environment.find("LC_MESSAGES=C"), std::string::npos);
  EXPECT_EQ(docsd.terminate(), 0) << docsd.log();
}

TEST(Lifecycle, StalePostmasterPidAfterEverythingWasKilled) {
  docs::test::TempDir data;
  Docsd first({{}, {"serve"}, data.path(), ""});
  ASSERT_TRUE(first.start(std::chrono::seconds(120))) << first.log();
  auto id = createNote(first.port(), "kept");
  std::string pidFile = data.path() + "/pg/data/postmaster.pid";
  std::ifstream in(pidFile);
  pid_t postmaster = 0;
  in >> postmaster;
  ASSERT_GT(postmaster, 0);
  first.kill9();
  ::kill(postmaster, SIGKILL);
  for (int i = 0; i < 100 && ::kill(postmaster, 0) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(pidFile)) << "a crash leaves postmaster.pid behind";
  Docsd second({{}, {"serve"}, data.path(), ""});
  ASSERT_TRUE(second.start(std::chrono::seconds(120))) << second.log();
  EXPECT_EQ(httpRequest(second.port(), "GET", "/api/example/notes/" + std::to_string(id)).status, 200);
}

TEST(Lifecycle, DisabledPluginsRoutesAre404WhileTheRestWork) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"good/second.so"});
  {
    Docsd both({{{"DOCS_PLUGINS_DIR", plugins}}, {"serve"}, "", database.url()});
    ASSERT_TRUE(both.start()) << both.log();
    EXPECT_EQ(httpRequest(both.port(), "GET", "/api/second/ping").status, 200);
    EXPECT_EQ(httpRequest(both.port(), "GET", "/api/example/hello").status, 200);
  }
  Docsd none({{{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "none"}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(none.start()) << none.log();
  EXPECT_EQ(httpRequest(none.port(), "GET", "/api/example/hello").status, 404);
  EXPECT_EQ(httpRequest(none.port(), "GET", "/api/second/ping").status, 404);
  EXPECT_EQ(httpRequest(none.port(), "GET", "/healthz").status, 200);
  auto config = json::parse(httpRequest(none.port(), "GET", "/config.json").body);
  EXPECT_EQ(config["features"].value("example", true), false);
}

TEST(Lifecycle, TheOptInExamplePluginServesOnlyWhenNamed) {
  docs::test::TestDatabase database;
  {
    Docsd production({{{"DOCS_PLUGINS_ENABLED", "all"}}, {"serve"}, "", database.url()});
    ASSERT_TRUE(production.start()) << production.log();
    EXPECT_EQ(httpRequest(production.port(), "GET", "/api/example/hello").status, 404);
    EXPECT_EQ(httpRequest(production.port(), "POST", "/api/example/echo", "{}", {{"Content-Type", "application/json"}})
                  .status,
              404);
    auto config = json::parse(httpRequest(production.port(), "GET", "/config.json").body);
    EXPECT_EQ(config["features"].value("example", true), false);
    EXPECT_NE(production.log().find("example: opt-in"), std::string::npos) << production.log();
  }
  Docsd named({{{"DOCS_PLUGINS_ENABLED", "all,example"}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(named.start()) << named.log();
  EXPECT_EQ(httpRequest(named.port(), "GET", "/api/example/hello").status, 200);
  auto config = json::parse(httpRequest(named.port(), "GET", "/config.json").body);
  EXPECT_EQ(config["features"].value("example", false), true);
}

TEST(Lifecycle, PluginsOwnTheirCommands) {
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {});
  std::string docsd = docs::test::buildDir() + "/bin/docsd";
  std::map<std::string, std::string> named = {
      {"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "all,example"}, {"DOCS_EXAMPLE_GREETING", "bonjour"}};
  auto [code, out] = docs::test::runCommand({docsd, "example-greet", "Ada"}, named);
  EXPECT_EQ(code, 0) << out;
  EXPECT_EQ(out, "bonjour, Ada\n");
  // Everything after the command's name is its own, options too.
  auto [usageCode, usageOut] = docs::test::runCommand({docsd, "example-greet", "--port", "1"}, named);
  EXPECT_EQ(usageCode, 64) << usageOut;
  EXPECT_NE(usageOut.find("usage: docsd example-greet [NAME]"), std::string::npos) << usageOut;

  auto [helpCode, helpOut] = docs::test::runCommand({docsd, "help"}, named);
  EXPECT_EQ(helpCode, 0) << helpOut;
  EXPECT_NE(helpOut.find("  example-greet [NAME]  (plugin example)"), std::string::npos) << helpOut;
  EXPECT_NE(helpOut.find("reads example.greeting"), std::string::npos) << helpOut;

  // Not loaded: the command names its plugin and why.
  std::map<std::string, std::string> all = {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "all"}};
  auto [offCode, offOut] = docs::test::runCommand({docsd, "example-greet"}, all);
  EXPECT_EQ(offCode, 69) << offOut;
  EXPECT_NE(offOut.find("`docsd example-greet` is provided by the example plugin, which is not loaded: opt-in"),
            std::string::npos)
      << offOut;
  auto [allHelpCode, allHelpOut] = docs::test::runCommand({docsd, "help"}, all);
  EXPECT_EQ(allHelpCode, 0) << allHelpOut;
  EXPECT_EQ(allHelpOut.find("example-greet"), std::string::npos) << allHelpOut;
  auto [noneCode, noneOut] = docs::test::runCommand({docsd, "example-greet"},
                                                    {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "none"}});
  EXPECT_EQ(noneCode, 69) << noneOut;
  EXPECT_NE(noneOut.find("which is not loaded: disabled by plugins.enabled"), std::string::npos) << noneOut;

  // No plugin declares it: a usage error (EX_USAGE) with the usage.
  auto [unknownCode, unknownOut] = docs::test::runCommand({docsd, "frobnicate", "x"}, named);
  EXPECT_EQ(unknownCode, 64) << unknownOut;
  EXPECT_NE(unknownOut.find("docsd: unknown command 'frobnicate'"), std::string::npos) << unknownOut;
  EXPECT_NE(unknownOut.find("usage: docsd"), std::string::npos) << unknownOut;
  // A plugin that could not say what it provides is named.
  auto [refusedCode, refusedOut] =
      docs::test::runCommand({docsd, "frobnicate"}, {{"DOCS_PLUGINS_DIR", pluginCase("throws_configure")}});
  EXPECT_EQ(refusedCode, 64) << refusedOut;
  EXPECT_NE(refusedOut.find("(plugin throws_configure refused to configure: no configuration for you)"),
            std::string::npos)
      << refusedOut;
}

// The command line is strict: an unknown option is a usage error (64) before anything
// starts, a setting that cannot be read or used is a configuration error (78),
// --opt=value and --set KEY=VALUE work, `docsd config` shows every setting with its source
// and secrets masked, a secret can come from a file (NAME_FILE), --version names the build.
TEST(Lifecycle, TheCommandLineRefusesWhatItDoesNotKnowAndShowsItsSettings) {
  docs::test::TempDir dir;
  std::string docsd = docs::test::buildDir() + "/bin/docsd";
  std::map<std::string, std::string> env = {{"DOCS_DATA_DIR", dir.path() + "/data"}};
  for (const auto& args : std::vector<std::vector<std::string>>{{docsd, "--bogus"},
                                                                {docsd, "serve", "--bogus"},
                                                                {docsd, "migrate", "-x"},
                                                                {docsd, "--set", "novalue"},
                                                                {docsd, "--port"}}) {
    auto [code, out] = docs::test::runCommand(args, env);
    EXPECT_EQ(code, 64) << args.back() << ": " << out;
    EXPECT_NE(out.find("usage: docsd"), std::string::npos) << out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/data"));  // nothing started, nothing written

  auto [portCode, portOut] = docs::test::runCommand({docsd, "--port=abc"}, env);
  EXPECT_EQ(portCode, 78) << portOut;
  EXPECT_NE(portOut.find("configuration: config key server.port must be an integer, got 'abc'"), std::string::npos)
      << portOut;
  auto [fileCode, fileOut] = docs::test::runCommand({docsd, "--config=" + dir.path() + "/missing.json", "config"}, env);
  EXPECT_EQ(fileCode, 78) << fileOut;
  std::ofstream(dir.path() + "/bad.json") << "{not json";
  auto [badCode, badOut] = docs::test::runCommand({docsd, "--config", dir.path() + "/bad.json", "config"}, env);
  EXPECT_EQ(badCode, 78) << badOut;

  std::ofstream(dir.path() + "/llm-key") << "hunter2\n";
  std::ofstream(dir.path() + "/config.json") << R"({"server": {"mode": "stage"}})";
  auto withSecrets = env;
  withSecrets["DOCS_LLM_API_KEY_FILE"] = dir.path() + "/llm-key";
  withSecrets["DATABASE_URL"] = "postgres://docs:s3cret@db.example/docs";
  auto [configCode, configOut] = docs::test::runCommand(
      {docsd, "--config=" + dir.path() + "/config.json", "--set", "log.level=debug", "config"}, withSecrets);
  EXPECT_EQ(configCode, 0) << configOut;
  EXPECT_NE(configOut.find("server.mode = stage  (file)"), std::string::npos) << configOut;
  EXPECT_NE(configOut.find("log.level = debug  (flag)"), std::string::npos) << configOut;
  EXPECT_NE(configOut.find("database.url = postgres://docs:***@db.example/docs  (env)"), std::string::npos)
      << configOut;
  EXPECT_NE(configOut.find("llm.api_key = ***  (env file, plugin "), std::string::npos) << configOut;
  EXPECT_EQ(configOut.find("hunter2"), std::string::npos);
  EXPECT_EQ(configOut.find("s3cret"), std::string::npos);
  auto missingSecret = env;
  missingSecret["DOCS_LLM_API_KEY_FILE"] = dir.path() + "/nowhere";
  auto [secretCode, secretOut] = docs::test::runCommand({docsd, "config"}, missingSecret);
  EXPECT_EQ(secretCode, 78) << secretOut;

  auto [versionCode, versionOut] = docs::test::runCommand({docsd, "--version"}, env);
  EXPECT_EQ(versionCode, 0);
  EXPECT_EQ(versionOut.rfind("docsd 0.1.0 (", 0), 0u) << versionOut;
  EXPECT_NE(versionOut.find("plugin ABI"), std::string::npos);
}

TEST(Lifecycle, DependencyOnADisabledPluginStopsTheStartByName) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"good/second.so"});
  Docsd docsd({{{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "second"}}, {"serve"}, "", database.url()});
  EXPECT_FALSE(docsd.start());
  EXPECT_NE(docsd.log().find("plugin second needs plugin example, which is disabled by plugins.enabled"),
            std::string::npos)
      << docsd.log();
}

TEST(Lifecycle, AMissingRequiredServiceStopsTheStartByName) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"good/second.so", "needs_service/needs_service.so"});
  // second provides the Authenticator, but plugins.enabled leaves it out.
  Docsd without({{{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "example,needs_service"}},
                 {"serve"},
                 "",
                 database.url()});
  EXPECT_FALSE(without.start());
  EXPECT_NE(without.log().find("plugin needs_service requires docs.authenticator/1, which no loaded plugin provides "
                               "(second: disabled by plugins.enabled)"),
            std::string::npos)
      << without.log();
  std::string docsd = docs::test::buildDir() + "/bin/docsd";
  auto [code, out] = docs::test::runCommand(
      {docsd, "plugins"}, {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "example,second,needs_service"}});
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("requires docs.authenticator/1"), std::string::npos) << out;
  EXPECT_NE(out.find("provides docs.authenticator/1"), std::string::npos) << out;
  // By name needs_service would start before second; the service puts its provider first.
  EXPECT_NE(out.find("start order: example second needs_service"), std::string::npos) << out;

  Docsd with({{{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "example,second,needs_service"}},
              {"serve"},
              "",
              database.url()});
  ASSERT_TRUE(with.start()) << with.log();
  auto check = httpRequest(with.port(), "GET", "/api/needs_service/check");
  ASSERT_EQ(check.status, 200) << check.body;
  EXPECT_EQ(json::parse(check.body)["known"], true);
}

TEST(Lifecycle, BrokenPluginsStopTheStartWithAReason) {
  docs::test::TestDatabase database;
  struct Case {
    std::string file;
    std::string expected;
  };
  for (const auto& c :
       std::vector<Case>{{"throws_configure/throws_configure.so",
                          "plugin throws_configure refused to configure: no configuration for you"},
                         {"needs_missing/needs_missing.so", "needs plugin nonexistent, which is not installed"}}) {
    docs::test::TempDir dir;
    std::string plugins = pluginsWith(dir, {c.file});
    Docsd docsd({{{"DOCS_PLUGINS_DIR", plugins}}, {"serve"}, "", database.url()});
    EXPECT_FALSE(docsd.start());
    EXPECT_NE(docsd.log().find(c.expected), std::string::npos) << docsd.log();
  }
  // A wrong-ABI library that nobody enabled by name is skipped, not fatal, and listed.
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"wrong_abi/wrong_abi.so"});
  Docsd docsd({{{"DOCS_PLUGINS_DIR", plugins}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  EXPECT_NE(docsd.log().find("built for plugin ABI 99"), std::string::npos) << docsd.log();
}

TEST(Lifecycle, PluginsAndMigrateCommands) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"good/second.so", "wrong_abi/wrong_abi.so"});
  std::string docsd = docs::test::buildDir() + "/bin/docsd";
  auto [code, out] = docs::test::runCommand({docsd, "plugins"},
                                            {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "all,example"}});
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("example 1.0.0: enabled"), std::string::npos) << out;
  EXPECT_NE(out.find("second 2.1.0 (needs example): enabled"), std::string::npos) << out;
  EXPECT_NE(out.find("NOT LOADABLE: built for plugin ABI 99"), std::string::npos) << out;
  EXPECT_NE(out.find("start order: example second"), std::string::npos) << out;
  // The example plugin is opt-in: plugins.enabled=all leaves it out, so second cannot start.
  auto [allCode, allOut] =
      docs::test::runCommand({docsd, "plugins"}, {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "all"}});
  EXPECT_EQ(allCode, 1) << allOut;
  EXPECT_NE(
      allOut.find("example 1.0.0: opt-in: plugins.enabled=all leaves it out (name it: plugins.enabled=all,example)"),
      std::string::npos)
      << allOut;
  EXPECT_NE(allOut.find("second needs plugin example, which is opt-in and not named in plugins.enabled"),
            std::string::npos)
      << allOut;
  auto [failCode, failOut] =
      docs::test::runCommand({docsd, "plugins"}, {{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "second"}});
  EXPECT_EQ(failCode, 1) << failOut;

  auto [migrateCode, migrateOut] = docs::test::runCommand({docsd, "migrate"}, {{"DOCS_PLUGINS_DIR", plugins},
                                                                               {"DOCS_PLUGINS_ENABLED", "all,example"},
                                                                               {"DATABASE_URL", database.url()},
                                                                               {"DOCS_DATA_DIR", dir.path()}});
  EXPECT_EQ(migrateCode, 0) << migrateOut;
  EXPECT_NE(migrateOut.find("example/1 notes"), std::string::npos) << migrateOut;

  auto [helpCode, helpOut] = docs::test::runCommand({docsd, "--help"}, {{"DOCS_PLUGINS_DIR", plugins}});
  EXPECT_EQ(helpCode, 0);
  for (auto key : {"server.public_url", "server.allowed_origins", "plugins.enabled", "DATABASE_URL", "DOCS_PORT",
                   "example.greeting"})
    EXPECT_NE(helpOut.find(key), std::string::npos) << key;
}

TEST(Lifecycle, EditedMigrationRefusesTheStart) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string docsd = docs::test::buildDir() + "/bin/docsd";
  std::map<std::string, std::string> env = {{"DATABASE_URL", database.url()},
                                            {"DOCS_DATA_DIR", dir.path()},
                                            {"DOCS_PLUGINS_DIR", docs::test::buildDir() + "/plugins"},
                                            {"DOCS_PLUGINS_ENABLED", "all,example"}};
  ASSERT_EQ(docs::test::runCommand({docsd, "migrate"}, env).first, 0);
  // Simulate an edited file: the recorded checksum no longer matches.
  auto [psqlCode, psqlOut] = docs::test::runCommand(
      {"psql", database.url(), "-c", "UPDATE schema_migrations SET checksum = $$x$$ WHERE owner = $$example$$"});
  ASSERT_EQ(psqlCode, 0) << psqlOut;
  auto [code, out] = docs::test::runCommand({docsd, "migrate"}, env);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("example: migration 1 (notes) was changed after it was applied"), std::string::npos) << out;
}

TEST(Lifecycle, SigtermStopsCleanly) {
  docs::test::TestDatabase database;
  Docsd docsd({{}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  EXPECT_EQ(docsd.terminate(), 0);
  EXPECT_NE(docsd.log().find("example plugin stopped"), std::string::npos) << docsd.log();
}

TEST(Lifecycle, EventsReachPluginsOnlyBetweenTheirStartAndStop) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"start_events/start_events.so"});
  Docsd docsd({{{"DOCS_PLUGINS_DIR", plugins}, {"DOCS_PLUGINS_ENABLED", "example,start_events"}},
               {"serve"},
               "",
               database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  json state;
  for (int i = 0; i < 500; ++i) {  // waits for the delivery, at most ~10 s
    state = json::parse(httpRequest(docsd.port(), "GET", "/api/start_events/state").body, nullptr, false);
    if (state.is_object() && state.value("delivered", 0) > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(state.value("delivered", 0), 1) << state.dump();
  EXPECT_EQ(state.value("duringStart", true), false) << "an event reached the plugin before every start() returned";
  EXPECT_EQ(docsd.terminate(), 0);
  EXPECT_NE(docsd.log().find("start_events stopped"), std::string::npos) << docsd.log();
  EXPECT_EQ(docsd.log().find("an event reached a stopped plugin"), std::string::npos) << docsd.log();
}

TEST(Lifecycle, AnEventPublishedInAStopReachesThePluginsStillRunning) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"stop_publisher/stop_publisher.so", "stop_listener/stop_listener.so"});
  std::map<std::string, std::string> env = {{"DOCS_PLUGINS_DIR", plugins},
                                            {"DOCS_PLUGINS_ENABLED", "example,stop_listener,stop_publisher"}};
  Docsd docsd({env, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  EXPECT_EQ(docsd.terminate(), 0);
  EXPECT_NE(docsd.log().find("stop_listener received the event published from stop"), std::string::npos) << docsd.log();
  EXPECT_EQ(docsd.log().find("an event reached a stopping plugin"), std::string::npos) << docsd.log();
}

TEST(Lifecycle, MissingPostgresProgramsAreAClearError) {
  docs::test::TempDir data;
  Docsd docsd({{{"DOCS_DATABASE_POSTGRES_BIN_DIR", data.path()}}, {"serve"}, data.path(), ""});
  EXPECT_FALSE(docsd.start());
  EXPECT_NE(docsd.log().find("does not hold initdb, pg_ctl and postgres"), std::string::npos) << docsd.log();
}

TEST(Lifecycle, TwoNodesShareOneDatabase) {
  docs::test::TestDatabase database;
  Docsd a({{}, {"serve"}, "", database.url()});
  Docsd b({{}, {"serve"}, "", database.url()});
  ASSERT_TRUE(a.start()) << a.log();
  ASSERT_TRUE(b.start()) << b.log();
  std::vector<std::int64_t> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(createNote(i % 2 ? a.port() : b.port(), "note " + std::to_string(i)));
  // Each job runs once, on whichever node claims it; events reach both nodes.
  json statsA, statsB;
  for (int i = 0; i < 200; ++i) {
    statsA = json::parse(httpRequest(a.port(), "GET", "/api/example/stats").body, nullptr, false);
    statsB = json::parse(httpRequest(b.port(), "GET", "/api/example/stats").body, nullptr, false);
    if (statsA.value("events_seen", 0) >= 10 && statsB.value("events_seen", 0) >= 10) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(statsA.value("notes_processed", 0), 10) << statsA.dump();
  EXPECT_EQ(statsA.value("events_seen", 0), 10) << statsA.dump();
  EXPECT_EQ(statsB.value("events_seen", 0), 10) << statsB.dump();
}

TEST(Lifecycle, TheCallerIsResolvedThroughTheAuthenticatorService) {
  docs::test::TestDatabase database;
  docs::test::TempDir dir;
  std::string plugins = pluginsWith(dir, {"good/second.so"});
  Docsd docsd({{{"DOCS_PLUGINS_DIR", plugins}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  auto anonymous = httpRequest(docsd.port(), "GET", "/api/second/whoami");
  EXPECT_EQ(anonymous.status, 401);
  auto wrong = httpRequest(docsd.port(), "GET", "/api/second/whoami", "", {{"Authorization", "Bearer nope"}});
  EXPECT_EQ(wrong.status, 401);
  auto good = httpRequest(docsd.port(), "GET", "/api/second/whoami", "", {{"Authorization", "Bearer good-token"}});
  ASSERT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(json::parse(good.body)["email"], "u1@example.com");
}

// A job longer than server.stop_grace_ms: it is logged, the plugins stop around it, and
// the database pool stays until it returned (a second wait of the same bound). The job
// sleeps 2.5 s from the moment the stop begins, so it overruns the 2 s bound whatever the
// machine's load, and returns 1.5 s before the second wait ends.
TEST(Lifecycle, AJobThatOverrunsTheStopDeadlineKeepsTheDatabaseUntilItReturns) {
  docs::test::TestDatabase database;
  Docsd docsd({{{"DOCS_SERVER_STOP_GRACE_MS", "2000"}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  ASSERT_EQ(httpRequest(docsd.port(), "POST", "/api/example/slow", R"({"ms": 2500, "after_stop": true})",
                        {{"Content-Type", "application/json"}})
                .status,
            202);
  json stats = json::object();
  for (int i = 0; i < 100 && stats.value("slow_started", 0) < 1; ++i) {
    stats = json::parse(httpRequest(docsd.port(), "GET", "/api/example/stats").body, nullptr, false);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(stats.value("slow_started", 0), 1);
  EXPECT_EQ(docsd.terminate(), 0) << docsd.log();
  std::string log = docsd.log();
  EXPECT_NE(log.find("a job overran the stop deadline"), std::string::npos) << log;
  EXPECT_NE(log.find("example.slow"), std::string::npos) << log;
  auto [code, out] = docs::test::runCommand({"psql", database.url(), "-tAc",
                                             "SELECT status || $$:$$ || (SELECT value FROM example_counters WHERE name "
                                             "= $$slow_finished$$) FROM jobs WHERE kind = $$example.slow$$"});
  EXPECT_EQ(out, "done:1\n") << "the job used the database after the plugins stopped, and finished";
}

TEST(Lifecycle, ShutdownWaitsForARunningJob) {
  docs::test::TestDatabase database;
  Docsd docsd({{}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  ASSERT_EQ(
      httpRequest(docsd.port(), "POST", "/api/example/slow", R"({"ms": 2000})", {{"Content-Type", "application/json"}})
          .status,
      202);
  json stats = json::object();
  for (int i = 0; i < 100 && stats.value("slow_started", 0) < 1; ++i) {
    stats = json::parse(httpRequest(docsd.port(), "GET", "/api/example/stats").body, nullptr, false);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(stats.value("slow_started", 0), 1);
  EXPECT_EQ(docsd.terminate(), 0);
  auto [code, out] = docs::test::runCommand({"psql", database.url(), "-tAc",
                                             "SELECT status || $$:$$ || (SELECT value FROM example_counters WHERE name "
                                             "= $$slow_finished$$) FROM jobs WHERE kind = $$example.slow$$"});
  EXPECT_EQ(out, "done:1\n") << "the running job finished before docsd exited";
}
