#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <sstream>

#include "app/plugin_host.hpp"
#include "config/config_store.hpp"
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

PluginCandidate optIn(const std::string& name, std::vector<std::string> deps = {}) {
  PluginCandidate c = candidate(name, std::move(deps));
  c.optIn = true;
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
  auto message =
      errorOf({candidate("a", {"b"}), candidate("b", {"c"}), candidate("c", {"a"}), candidate("d")}, {"all"});
  EXPECT_NE(message.find("cycle"), std::string::npos) << message;
  EXPECT_NE(message.find("a, b, c"), std::string::npos) << message;
}

TEST(PluginOrder, TwoFilesWithOneNameAreRefused) {
  auto message = errorOf({candidate("a"), candidate("a")}, {"all"});
  EXPECT_NE(message.find("two plugin files are named a"), std::string::npos) << message;
}

TEST(PluginOrder, AllLeavesOptInPluginsOutUnlessNamed) {
  std::vector<PluginCandidate> candidates = {candidate("a"), optIn("example"), candidate("b", {"a"})};
  std::vector<std::string> skipped;
  EXPECT_EQ(names(selectAndOrder(candidates, {"all"}, &skipped)), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("example: opt-in"), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[0].find("plugins.enabled=all,example"), std::string::npos) << skipped[0];
  EXPECT_EQ(names(selectAndOrder(candidates, {})), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(names(selectAndOrder(candidates, {"all", "example"})), (std::vector<std::string>{"a", "b", "example"}));
  EXPECT_EQ(names(selectAndOrder(candidates, {"example"})), (std::vector<std::string>{"example"}));
  EXPECT_NE(errorOf(candidates, {"all", "ghost"}).find("ghost is enabled but no plugin file provides it"),
            std::string::npos);
}

TEST(PluginOrder, ADependencyOnAnUnnamedOptInPluginSaysHowToNameIt) {
  auto message = errorOf({optIn("example"), candidate("second", {"example"})}, {"all"});
  EXPECT_NE(message.find("second needs plugin example, which is opt-in and not named in plugins.enabled (name it: "
                         "all,example)"),
            std::string::npos)
      << message;
}

TEST(PluginOrder, WhyNotEnabledNamesTheReason) {
  using docs::core::whyNotEnabled;
  EXPECT_EQ(whyNotEnabled(candidate("a"), {"all"}), "");
  EXPECT_EQ(whyNotEnabled(candidate("a"), {"a"}), "");
  EXPECT_EQ(whyNotEnabled(candidate("a"), {"b"}), "disabled by plugins.enabled");
  EXPECT_EQ(whyNotEnabled(candidate("a"), {"none"}), "disabled by plugins.enabled");
  EXPECT_NE(whyNotEnabled(optIn("x"), {"all"}).find("opt-in"), std::string::npos);
  EXPECT_EQ(whyNotEnabled(optIn("x"), {"all", "x"}), "");
  EXPECT_EQ(whyNotEnabled(optIn("x"), {"y"}), "disabled by plugins.enabled");
}

TEST(PluginCommands, NamesAreCheckedAndUniqueAcrossPlugins) {
  docs::core::ConfigStore config(std::map<std::string, std::string>{});
  docs::core::HostState state;
  state.config = &config;
  docs::core::Declarations declarations;
  docs::core::PluginContext contextA("a", state), contextB("b", state);
  docs::core::PluginRegistry a("a", contextA, state, declarations), b("b", contextB, state, declarations);
  auto command = [](std::string name) {
    docs::Command c;
    c.name = std::move(name);
    c.run = [](const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
      out << args.size();
      return 3;
    };
    return c;
  };
  a.command(command("greet"));
  ASSERT_EQ(declarations.commands.size(), 1u);
  EXPECT_EQ(declarations.commands[0].owner, "a");
  std::ostringstream out, err;
  EXPECT_EQ(declarations.commands[0].command.run({"x", "y"}, out, err), 3);
  EXPECT_EQ(out.str(), "2");
  try {
    b.command(command("greet"));
    ADD_FAILURE() << "a second greet was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("command greet is declared by both a and b"), std::string::npos)
        << error.what();
  }
  for (const char* bad : {"serve", "help", "plugins", "ydoc", "", "-x", "Greet", "two words"})
    EXPECT_THROW(b.command(command(bad)), std::invalid_argument) << bad;
  docs::Command noRun;
  noRun.name = "idle";
  EXPECT_THROW(b.command(noRun), std::invalid_argument);
  EXPECT_EQ(declarations.commands.size(), 1u);
}

TEST(PluginInspect, GoodPluginLoadsWithItsManifest) {
  auto c = docs::core::inspectPlugin(fixture("good/second.so"));
  ASSERT_TRUE(c.loadable) << c.problem;
  EXPECT_EQ(c.name, "second");
  EXPECT_EQ(c.version, "2.1.0");
  EXPECT_EQ(c.dependencies, (std::vector<std::string>{"example"}));
  EXPECT_FALSE(c.optIn);  // DOCS_PLUGIN: no flags
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

TEST(PluginInspect, WrongJsonVersionIsRefusedWithBothVersions) {
  auto c = docs::core::inspectPlugin(fixture("wrong_json/wrong_json.so"));
  EXPECT_FALSE(c.loadable);
  EXPECT_NE(c.problem.find("nlohmann/json 2.1.1"), std::string::npos) << c.problem;
  std::string ours = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) +
                     "." + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  EXPECT_NE(c.problem.find("docsd uses " + ours), std::string::npos) << c.problem;
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
