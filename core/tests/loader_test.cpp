#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "docs/plugin.hpp"
#include "plugins/plugin_loader.hpp"

using docs::core::PluginCandidate;
using docs::core::PluginLoadError;
using docs::core::selectAndOrder;

namespace {

PluginCandidate candidate(const std::string& name, std::vector<std::string> deps = {}, bool loadable = true) {
  PluginCandidate c;
  c.name = name;
  c.path = "/plugins/" + name + ".so";
  c.dependencies = std::move(deps);
  c.loadable = loadable;
  if (!loadable) c.problem = "broken on purpose";
  return c;
}

std::vector<std::string> names(const std::vector<PluginCandidate>& list) {
  std::vector<std::string> out;
  for (const auto& c : list) out.push_back(c.name);
  return out;
}

std::string errorOf(const std::vector<PluginCandidate>& candidates, const std::vector<std::string>& enabled) {
  try {
    selectAndOrder(candidates, enabled);
  } catch (const PluginLoadError& error) {
    return error.what();
  }
  return "";
}

std::string fixture(const std::string& relative) {
  const char* dir = std::getenv("DOCS_TEST_PLUGINS");
  return std::string(dir ? dir : DOCS_TEST_DEFAULT_PLUGINS) + "/" + relative;
}

}  // namespace

TEST(PluginOrder, DependenciesStartFirstAndTiesAreByName) {
  auto order = selectAndOrder({candidate("rag", {"pages", "auth"}), candidate("pages", {"auth", "rbac"}),
                               candidate("rbac", {"auth"}), candidate("auth"), candidate("collab", {"pages"})},
                              {"all"});
  EXPECT_EQ(names(order), (std::vector<std::string>{"auth", "rbac", "pages", "collab", "rag"}));
}

TEST(PluginOrder, EnabledListSelectsPlugins) {
  auto order = selectAndOrder({candidate("a"), candidate("b", {"a"}), candidate("c")}, {"b", "a"});
  EXPECT_EQ(names(order), (std::vector<std::string>{"a", "b"}));
}

TEST(PluginOrder, NoneEnablesNothing) {
  EXPECT_TRUE(selectAndOrder({candidate("a"), candidate("b")}, {"none"}).empty());
}

TEST(PluginOrder, MissingDependencyIsNamed) {
  auto message = errorOf({candidate("pages", {"auth"})}, {"all"});
  EXPECT_NE(message.find("pages needs plugin auth, which is not installed"), std::string::npos) << message;
}

TEST(PluginOrder, DisabledDependencyIsNamed) {
  auto message = errorOf({candidate("pages", {"auth"}), candidate("auth")}, {"pages"});
  EXPECT_NE(message.find("disabled by plugins.enabled"), std::string::npos) << message;
}

TEST(PluginOrder, BrokenDependencyIsNamedWithItsProblem) {
  auto message = errorOf({candidate("pages", {"auth"}), candidate("auth", {}, false)}, {"all"});
  EXPECT_NE(message.find("auth, which cannot be loaded: broken on purpose"), std::string::npos) << message;
}

TEST(PluginOrder, EnabledButAbsentPluginIsAnError) {
  auto message = errorOf({candidate("a")}, {"a", "ghost"});
  EXPECT_NE(message.find("ghost is enabled but no plugin file provides it"), std::string::npos) << message;
}

TEST(PluginOrder, CyclesAreReported) {
  auto message = errorOf({candidate("a", {"b"}), candidate("b", {"c"}), candidate("c", {"a"}), candidate("d")}, {"all"});
  EXPECT_NE(message.find("cycle"), std::string::npos) << message;
  EXPECT_NE(message.find("a, b, c"), std::string::npos) << message;
}

TEST(PluginOrder, TwoFilesWithOneNameAreRefused) {
  auto message = errorOf({candidate("a"), candidate("a")}, {"all"});
  EXPECT_NE(message.find("two plugin files are named a"), std::string::npos) << message;
}

TEST(PluginInspect, GoodPluginLoadsWithItsManifest) {
  auto c = docs::core::inspectPlugin(fixture("good/second.so"));
  ASSERT_TRUE(c.loadable) << c.problem;
  EXPECT_EQ(c.name, "second");
  EXPECT_EQ(c.version, "2.1.0");
  EXPECT_EQ(c.dependencies, (std::vector<std::string>{"example"}));
  auto plugin = docs::core::instantiate(c);
  EXPECT_NE(plugin, nullptr);
}

TEST(PluginInspect, WrongAbiIsRefusedWithBothVersions) {
  auto c = docs::core::inspectPlugin(fixture("wrong_abi/wrong_abi.so"));
  EXPECT_FALSE(c.loadable);
  EXPECT_NE(c.problem.find("plugin ABI 99"), std::string::npos) << c.problem;
  EXPECT_NE(c.problem.find("plugin ABI " + std::to_string(docs::kPluginAbi)), std::string::npos) << c.problem;
  EXPECT_THROW(docs::core::instantiate(c), PluginLoadError);
}

TEST(PluginInspect, MissingManifestSymbolIsRefused) {
  auto c = docs::core::inspectPlugin(fixture("no_manifest/no_manifest.so"));
  EXPECT_FALSE(c.loadable);
  EXPECT_NE(c.problem.find("exports no plugin manifest"), std::string::npos) << c.problem;
}

TEST(PluginInspect, MissingFileAndNonLibraryAreRefused) {
  auto missing = docs::core::inspectPlugin(fixture("nowhere/ghost.so"));
  EXPECT_FALSE(missing.loadable);
  EXPECT_NE(missing.problem.find("file not found"), std::string::npos);
  auto text = docs::core::inspectPlugin(fixture("not_a_library/broken.so"));
  EXPECT_FALSE(text.loadable);
  EXPECT_NE(text.problem.find("not a loadable shared library"), std::string::npos) << text.problem;
}

TEST(PluginInspect, FactoryThatThrowsIsReportedWithThePluginName) {
  auto c = docs::core::inspectPlugin(fixture("throws_in_factory/factory_throws.so"));
  ASSERT_TRUE(c.loadable) << c.problem;
  try {
    docs::core::instantiate(c);
    FAIL() << "expected PluginLoadError";
  } catch (const PluginLoadError& error) {
    EXPECT_NE(std::string(error.what()).find("factory_throws"), std::string::npos) << error.what();
  }
}
