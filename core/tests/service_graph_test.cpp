// Services declared in configure() and resolved before start: missing and cyclic needs are
// named, optional ones leave an empty ref, and the start order follows provider -> requirer.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>

#include "app/plugin_host.hpp"
#include "app/service_graph.hpp"
#include "config/config_store.hpp"

using docs::core::ServiceResolution;

namespace {

struct Projects {
  static constexpr const char* kServiceId = "test.projects/1";
  int answer = 42;
};
struct Access {
  static constexpr const char* kServiceId = "test.access/1";
};
struct Search {
  static constexpr const char* kServiceId = "test.search/1";
};

// A host with plugins declared through the real PluginRegistry, as configure() would.
class Host {
 public:
  Host() { state_.config = &config_; }

  docs::Registry& plugin(const std::string& name, std::vector<std::string> dependencies = {}) {
    nodes_.push_back({name, std::move(dependencies)});
    contexts_.push_back(std::make_unique<docs::core::PluginContext>(name, state_));
    registries_.push_back(std::make_unique<docs::core::PluginRegistry>(name, *contexts_.back(), state_, declarations_));
    return *registries_.back();
  }

  ServiceResolution resolve(const std::map<std::string, std::string>& notLoaded = {}) {
    return docs::core::resolveServices(nodes_, state_.needs, state_.provided, [notLoaded](std::string_view id) {
      auto it = notLoaded.find(std::string(id));
      return it == notLoaded.end() ? std::string() : it->second;
    });
  }

  const docs::core::HostState& state() const { return state_; }
  const docs::core::Declarations& declarations() const { return declarations_; }

 private:
  docs::core::ConfigStore config_{std::map<std::string, std::string>{}};
  docs::core::HostState state_;
  docs::core::Declarations declarations_;
  std::vector<docs::core::PluginNode> nodes_;
  std::vector<std::unique_ptr<docs::core::PluginContext>> contexts_;
  std::vector<std::unique_ptr<docs::core::PluginRegistry>> registries_;
};

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : " ") + item;
  return text;
}

}  // namespace

TEST(ServiceGraph, RequiredServiceIsFilledAndItsProviderStartsFirst) {
  Host host;
  Projects projects;
  docs::ServiceRef<Projects> ref;
  host.plugin("alpha").require(ref);
  host.plugin("zeta").provideService(projects);
  auto resolution = host.resolve();
  EXPECT_TRUE(resolution.problems.empty()) << joined(resolution.problems);
  EXPECT_EQ(joined(resolution.order), "zeta alpha");
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref.get(), &projects);
  EXPECT_EQ(ref->answer, 42);
}

TEST(ServiceGraph, MissingRequiredServiceNamesThePluginTheServiceAndWhy) {
  Host host;
  docs::ServiceRef<Projects> ref;
  docs::ServiceRef<Search> search;
  host.plugin("pages").require(ref);
  host.plugin("rag").require(search);
  auto resolution = host.resolve({{"test.projects/1", "projects: disabled by plugins.enabled"}});
  ASSERT_EQ(resolution.problems.size(), 2u);
  EXPECT_EQ(resolution.problems[0],
            "plugin pages requires test.projects/1, which no loaded plugin provides (projects: disabled by "
            "plugins.enabled)");
  EXPECT_EQ(resolution.problems[1],
            "plugin rag requires test.search/1, which no loaded plugin provides (no other plugin provides it)");
  EXPECT_FALSE(ref);
  EXPECT_EQ(joined(resolution.order), "pages rag");
}

TEST(ServiceGraph, OptionalServiceLeavesAnEmptyRefAndAddsNoEdge) {
  Host host;
  Projects projects;
  Access access;
  docs::ServiceRef<Projects> usesProjects;
  docs::ServiceRef<Access> requiresAccess;
  docs::ServiceRef<Search> usesSearch;
  // rbac uses Projects, projects requires Access: no cycle, rbac starts first.
  auto& rbac = host.plugin("rbac");
  rbac.provideService(access);
  rbac.use(usesProjects);
  rbac.use(usesSearch);
  auto& projectsPlugin = host.plugin("projects");
  projectsPlugin.provideService(projects);
  projectsPlugin.require(requiresAccess);
  auto resolution = host.resolve();
  EXPECT_TRUE(resolution.problems.empty()) << joined(resolution.problems);
  EXPECT_EQ(joined(resolution.order), "rbac projects");
  EXPECT_EQ(usesProjects.get(), &projects);
  EXPECT_EQ(requiresAccess.get(), &access);
  EXPECT_FALSE(usesSearch);
  EXPECT_EQ(usesSearch.get(), nullptr);
  try {
    (void)*usesSearch;
    ADD_FAILURE() << "an absent optional service was dereferenced";
  } catch (const std::logic_error& error) {
    EXPECT_EQ(std::string(error.what()), "service test.search/1 is optional and no loaded plugin provides it");
  }
}

TEST(ServiceGraph, RequiredCycleIsListedPluginByPlugin) {
  Host host;
  Projects projects;
  Access access;
  docs::ServiceRef<Projects> needsProjects;
  docs::ServiceRef<Access> needsAccess;
  auto& projectsPlugin = host.plugin("projects", {"auth"});
  projectsPlugin.provideService(projects);
  projectsPlugin.require(needsAccess);
  auto& rbac = host.plugin("rbac");
  rbac.provideService(access);
  rbac.require(needsProjects);
  host.plugin("auth");
  auto resolution = host.resolve();
  ASSERT_EQ(resolution.problems.size(), 1u);
  EXPECT_EQ(resolution.problems[0],
            "plugins depend on each other in a cycle: projects requires test.access/1 (rbac) -> rbac requires "
            "test.projects/1 (projects)");
  EXPECT_EQ(joined(resolution.order), "auth projects rbac");  // every plugin, the cycle in name order
}

TEST(ServiceGraph, ManifestDependenciesAreEdgesToo) {
  Host host;
  Projects projects;
  docs::ServiceRef<Projects> ref;
  host.plugin("a", {"c"}).provideService(projects);
  host.plugin("c").require(ref);
  auto resolution = host.resolve();
  ASSERT_EQ(resolution.problems.size(), 1u);
  EXPECT_EQ(resolution.problems[0],
            "plugins depend on each other in a cycle: a needs plugin c -> c requires test.projects/1 (a)");
}

TEST(ServiceGraph, TiesAreTakenByName) {
  Host host;
  Projects projects;
  docs::ServiceRef<Projects> ref;
  host.plugin("delta");
  host.plugin("bravo", {"alpha"});
  host.plugin("charlie").require(ref);
  host.plugin("alpha");
  host.plugin("echo").provideService(projects);
  auto resolution = host.resolve();
  EXPECT_TRUE(resolution.problems.empty()) << joined(resolution.problems);
  EXPECT_EQ(joined(resolution.order), "alpha bravo delta echo charlie");
}

TEST(ServiceGraph, ARefUsedBeforeResolutionThrowsNamingTheService) {
  Host host;
  Projects projects;
  docs::ServiceRef<Projects> ref;
  host.plugin("b").provideService(projects);
  host.plugin("a").require(ref);
  EXPECT_FALSE(ref);
  try {
    (void)ref->answer;
    ADD_FAILURE() << "an unresolved ref was used";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("service test.projects/1 was used before the host resolved it"),
              std::string::npos)
        << error.what();
  }
  host.resolve();
  EXPECT_EQ(ref->answer, 42);
}

TEST(ServiceGraph, DescribesWhatEachPluginProvidesRequiresAndUses) {
  Host host;
  Projects projects;
  docs::ServiceRef<Access> access;
  docs::ServiceRef<Search> search;
  auto& plugin = host.plugin("projects");
  plugin.provideService(projects);
  plugin.require(access);
  plugin.use(search);
  EXPECT_EQ(docs::core::describeServices("projects", host.state().needs, host.state().provided),
            "provides test.projects/1; requires test.access/1; uses test.search/1");
  EXPECT_EQ(docs::core::describeServices("other", host.state().needs, host.state().provided), "");
}

TEST(ServiceGraph, ANeedDeclaredTwiceIsDescribedOnce) {
  Host host;
  docs::ServiceRef<Access> first;
  docs::ServiceRef<Access> second;
  docs::ServiceRef<Search> search;
  docs::ServiceRef<Search> searchAgain;
  auto& plugin = host.plugin("pages");
  plugin.require(first);
  plugin.require(second);
  plugin.use(search);
  plugin.use(searchAgain);
  EXPECT_EQ(docs::core::describeServices("pages", host.state().needs, host.state().provided),
            "requires test.access/1; uses test.search/1");
}

TEST(PluginRegistry, CollectsWhatPluginsTellTheWebApp) {
  Host host;
  auto& rag = host.plugin("rag");
  rag.clientEndpoint({"ragUrl", "rag"});
  rag.apiPrefix("/lab/");
  auto& github = host.plugin("github");
  github.clientSetting("githubAppSlug", [] { return docs::Json("docs-app"); });
  github.apiPrefix("/lab/");  // shared: kept once
  github.apiPrefix("/api/");  // docsd's own: nothing to add
  const auto& declared = host.declarations();
  ASSERT_EQ(declared.clientEndpoints.size(), 1u);
  EXPECT_EQ(declared.clientEndpoints[0].endpoint.key, "ragUrl");
  EXPECT_EQ(declared.clientEndpoints[0].owner, "rag");
  ASSERT_EQ(declared.clientSettings.size(), 1u);
  EXPECT_EQ(declared.clientSettings[0].owner, "github");
  EXPECT_EQ(declared.clientSettings[0].value(), "docs-app");
  EXPECT_EQ(joined(declared.apiPrefixes), "/lab/");
}

TEST(PluginRegistry, RefusesClientKeysThatAreTakenAndMalformedDeclarations) {
  Host host;
  auto& rag = host.plugin("rag");
  rag.clientEndpoint({"ragUrl", "rag"});
  auto& other = host.plugin("other");
  auto refused = [](const std::function<void()>& declare, const std::string& expected) {
    try {
      declare();
      ADD_FAILURE() << "accepted; expected: " << expected;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
  };
  refused(
      [&] {
        other.clientEndpoint({"ragUrl", "other"});
      },
      "/config.json key ragUrl is declared by both rag and other");
  refused([&] { other.clientSetting("ragUrl", [] { return docs::Json(1); }); }, "declared by both rag and other");
  refused([&] { other.clientSetting("features", [] { return docs::Json(1); }); }, "which is docsd's own");
  refused([&] { other.clientEndpoint({"apiUrl", "api"}); }, "which is docsd's own");
  refused([&] { other.clientSetting("x", nullptr); }, "without a value");
  refused([&] { other.clientEndpoint({"xUrl", "Bad.Host"}); }, "a DNS label");
  refused([&] { other.clientEndpoint({"xUrl", "x", "no-slash"}); }, "the path 'no-slash'");
  refused([&] { other.clientEndpoint({"xUrl", "x", "/a;b"}); }, "the path '/a;b'");
  for (const char* prefix : {"", "/", "lab/", "/lab", "//x/"})
    refused([&] { other.apiPrefix(prefix); }, "the API prefix");
}

TEST(PluginContext, HandlesExistFromConfigureAndThrowOnlyWhenUsedTooEarly) {
  docs::core::ConfigStore config(std::map<std::string, std::string>{});
  docs::core::HostState state;
  state.config = &config;
  docs::core::PluginContext context("early", state);
  docs::Db& db = context.db();  // taking the handle is fine
  try {
    db.exec("SELECT 1");
    ADD_FAILURE() << "the database was used during configure()";
  } catch (const std::logic_error& error) {
    EXPECT_EQ(std::string(error.what()), "plugin early used the database during configure()");
  }
  EXPECT_THROW(context.jobs().enqueue(docs::JobSpec("early.job")), std::logic_error);
  EXPECT_THROW(context.events().publish("early.topic", {}), std::logic_error);
  EXPECT_EQ(&context.db(), &db);  // the same handle every time
  state.commandRuns = true;
  try {
    db.exec("SELECT 1");
    ADD_FAILURE() << "the database was used by a command";
  } catch (const std::logic_error& error) {
    EXPECT_EQ(std::string(error.what()), "plugin early used the database, which this docsd command does not open");
  }
}
