#include <gtest/gtest.h>

#include "config/config_store.hpp"

using docs::core::ConfigError;
using docs::core::ConfigStore;

namespace {

std::unique_ptr<ConfigStore> makeStorePtr(std::map<std::string, std::string> env = {}) {
  auto store = std::make_unique<ConfigStore>(std::move(env));
  docs::core::declareCoreKeys(*store);
  return store;
}

}  // namespace

TEST(Config, EnvNameIsDerivedFromTheKey) {
  EXPECT_EQ(docs::envNameForKey("plugins.enabled"), "DOCS_PLUGINS_ENABLED");
  EXPECT_EQ(docs::envNameForKey("server.public_url"), "DOCS_SERVER_PUBLIC_URL");
  EXPECT_EQ(docs::envNameForKey("a.b_c"), "DOCS_A_B_C");
}

TEST(Config, DefaultsThenFileThenEnvironmentThenFlags) {
  auto storePtr = makeStorePtr({{"DOCS_PLUGINS_DIR", "/from-env"}});
  auto& store = *storePtr;
  EXPECT_EQ(store.getString("log.level"), "info");
  EXPECT_EQ(store.sourceOf("log.level"), "default");
  store.loadJsonText(R"({"log": {"level": "debug"}, "plugins": {"dir": "/from-file", "enabled": ["a", "b"]}})", "test");
  EXPECT_EQ(store.getString("log.level"), "debug");
  EXPECT_EQ(store.sourceOf("log.level"), "file");
  EXPECT_EQ(store.getString("plugins.dir"), "/from-env");
  EXPECT_EQ(store.sourceOf("plugins.dir"), "env");
  EXPECT_EQ(store.getList("plugins.enabled"), (std::vector<std::string>{"a", "b"}));
  store.set("plugins.dir", "/from-flag");
  EXPECT_EQ(store.getString("plugins.dir"), "/from-flag");
}

TEST(Config, FixedEnvironmentNames) {
  auto storePtr = makeStorePtr({{"DOCS_PORT", "9090"}, {"DATABASE_URL", "postgresql://db/x"}, {"DOCS_DATA_DIR", "/d"}});
  auto& store = *storePtr;
  EXPECT_EQ(store.getInt("server.port"), 9090);
  EXPECT_EQ(store.getString("database.url"), "postgresql://db/x");
  EXPECT_EQ(store.getString("data_dir"), "/d");
}

TEST(Config, TypedAccessRejectsBadValues) {
  auto storePtr = makeStorePtr({{"DOCS_PORT", "80x"}, {"DOCS_SERVER_SUBHOSTS", "maybe"}});
  auto& store = *storePtr;
  EXPECT_THROW(store.getInt("server.port"), ConfigError);  // docsd exits 78 on these
  EXPECT_THROW(store.getBool("server.subhosts"), ConfigError);
  EXPECT_THROW(store.getString("no.such.key"), std::invalid_argument);
}

TEST(Config, BooleansAndListsAreForgiving) {
  auto storePtr = makeStorePtr({{"DOCS_SERVER_SUBHOSTS", " Yes "}, {"DOCS_PLUGINS_ENABLED", " auth, ,pages ,"}});
  auto& store = *storePtr;
  EXPECT_TRUE(store.getBool("server.subhosts"));
  EXPECT_EQ(store.getList("plugins.enabled"), (std::vector<std::string>{"auth", "pages"}));
}

TEST(Config, PluginKeysAreDeclaredOnceWithOneDefault) {
  auto storePtr = makeStorePtr({{"DOCS_EXAMPLE_GREETING", "hi"}});
  auto& store = *storePtr;
  store.declare({"example.greeting", "hello", "greeting", "", "example"});
  EXPECT_EQ(store.getString("example.greeting"), "hi");
  EXPECT_NO_THROW(store.declare({"example.greeting", "hello", "again", "", "example"}));
  EXPECT_THROW(store.declare({"example.greeting", "other", "clash", "", "second"}), std::runtime_error);
}

TEST(Config, UnknownSettingsAreReported) {
  auto storePtr = makeStorePtr({{"DOCS_SERVR_PORT", "1"}, {"HOME", "/root"}});
  auto& store = *storePtr;
  store.loadJsonText(R"({"sever": {"port": 1}})", "test");
  auto unknown = store.unknownSettings();
  ASSERT_EQ(unknown.size(), 2u);
  EXPECT_NE(unknown[0].find("sever.port"), std::string::npos);
  EXPECT_NE(unknown[1].find("DOCS_SERVR_PORT"), std::string::npos);
}

TEST(Config, MalformedFileIsAClearError) {
  auto storePtr = makeStorePtr();
  auto& store = *storePtr;
  EXPECT_THROW(store.loadJsonText("{not json", "bad.json"), ConfigError);
  EXPECT_THROW(store.loadJsonText("[1,2]", "array.json"), ConfigError);
  EXPECT_THROW(store.loadFile("/nonexistent/docsd.json"), ConfigError);
}
