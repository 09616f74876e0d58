// Unit tests of topic planning from the import graph (large flat folders split into
// groups of files that import each other, .docs/wiki.json steering), of the inventory
// rule that takes a published npm package's dist/ as its code, and of the quality
// figures' reading of repository links.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/inventory.hpp"
#include "planning/import_communities.hpp"
#include "planning/planner.hpp"
#include "test_support.hpp"
#include "writing/quality_report.hpp"

namespace fs = std::filesystem;
using namespace docs_generation;

namespace {

// Adds 40-line Python files and keeps the files sorted by path, as an analysis has them.
void addPythonFiles(Analysis& analysis, const std::vector<std::string>& paths) {
  for (const auto& path : paths) {
    FileAnalysis file;
    file.path = path;
    file.language = "python";
    file.lines = 40;
    analysis.files.push_back(file);
  }
  std::sort(analysis.files.begin(), analysis.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
}

// An analysis of code files only, with imports given as (from, to) pairs.
Analysis analysisOf(const std::vector<std::string>& paths,
                    const std::vector<std::pair<std::string, std::string>>& imports) {
  Analysis analysis;
  addPythonFiles(analysis, paths);
  auto at = [&](const std::string& path) -> FileAnalysis& {
    for (auto& f : analysis.files)
      if (f.path == path) return f;
    throw std::runtime_error("no file " + path);
  };
  for (const auto& [from, to] : imports) {
    at(from).dependsOn.push_back(to);
    at(to).usedBy.push_back(from);
  }
  return analysis;
}

// A flat folder `app/` of 20 files: a parser cluster, an http_* cluster, and loose files.
Analysis flatFolder() {
  std::vector<std::string> paths = {"app/parser.py",       "app/lexer.py",       "app/tokens.py",
                                    "app/ast_nodes.py",    "app/http_client.py", "app/http_server.py",
                                    "app/http_headers.py", "app/http_cookies.py"};
  for (int i = 0; i < 12; ++i) paths.push_back("app/loose" + std::to_string(i) + ".py");
  return analysisOf(paths, {{"app/parser.py", "app/lexer.py"},
                            {"app/parser.py", "app/ast_nodes.py"},
                            {"app/lexer.py", "app/tokens.py"},
                            {"app/ast_nodes.py", "app/tokens.py"},
                            {"app/http_client.py", "app/http_headers.py"},
                            {"app/http_server.py", "app/http_headers.py"},
                            {"app/http_server.py", "app/http_cookies.py"},
                            {"app/http_cookies.py", "app/http_headers.py"}});
}

const Topic* findTopic(const std::vector<Topic>& topics, const std::string& key) {
  for (const auto& topic : topics) {
    if (topic.key == key) return &topic;
    for (const auto& sub : topic.subtopics)
      if (sub.key == key) return &sub;
  }
  return nullptr;
}

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::set<std::string> pathsOf(const Inventory& inventory) {
  std::set<std::string> paths;
  for (const auto& f : inventory.files) paths.insert(f.path);
  return paths;
}

}  // namespace

TEST(ImportCommunities, FilesThatImportEachOtherFormAGroup) {
  auto analysis = flatFolder();
  std::vector<std::string> all;
  for (const auto& f : analysis.files) all.push_back(f.path);
  auto groups = importCommunities(analysis, all);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0],
            (std::vector<std::string>{"app/ast_nodes.py", "app/lexer.py", "app/parser.py", "app/tokens.py"}));
  EXPECT_EQ(groups[1], (std::vector<std::string>{"app/http_client.py", "app/http_cookies.py", "app/http_headers.py",
                                                 "app/http_server.py"}));
  // Named by the common prefix, else by the file the others import most.
  EXPECT_EQ(communityName(analysis, groups[0]), "tokens");
  EXPECT_EQ(communityName(analysis, groups[1]), "http");
  // Only imports within the given files count.
  EXPECT_TRUE(importCommunities(analysis, {"app/parser.py", "app/http_client.py"}).empty());
}

TEST(ImportCommunities, HubsStayOutOfTheGroups) {
  // An __init__ importing every clustered file and an errors module they all import.
  auto base = flatFolder();
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, std::string>> imports;
  for (const auto& f : base.files) {
    paths.push_back(f.path);
    for (const auto& to : f.dependsOn) imports.push_back({f.path, to});
  }
  paths.push_back("app/__init__.py");
  paths.push_back("app/errors.py");
  for (const auto& f : base.files)
    if (f.path.find("loose") == std::string::npos) {
      imports.push_back({"app/__init__.py", f.path});
      imports.push_back({f.path, "app/errors.py"});
    }
  auto analysis = analysisOf(paths, imports);
  auto groups = importCommunities(analysis, paths);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].size(), 4u);
  EXPECT_EQ(groups[1].size(), 4u);
  for (const auto& group : groups) {
    EXPECT_EQ(std::count(group.begin(), group.end(), "app/__init__.py"), 0);
    EXPECT_EQ(std::count(group.begin(), group.end(), "app/errors.py"), 0);
  }
}

TEST(Planner, ALargeFlatFolderIsSplitByItsImports) {
  auto analysis = flatFolder();
  auto plan = planTopics(analysis, {});
  ASSERT_EQ(plan.topics.size(), 1u);
  const Topic& app = plan.topics[0];
  EXPECT_EQ(app.key, "topic:app");
  ASSERT_EQ(app.subtopics.size(), 2u);
  const Topic* http = findTopic(plan.topics, "topic:app/http");
  const Topic* tokens = findTopic(plan.topics, "topic:app/tokens");
  ASSERT_NE(http, nullptr);
  ASSERT_NE(tokens, nullptr);
  EXPECT_EQ(http->title, "Http");
  EXPECT_EQ(http->folder, "app");
  EXPECT_EQ(http->files.size(), 4u);
  EXPECT_EQ(tokens->files.size(), 4u);
  EXPECT_EQ(app.files.size(), 12u);  // the loose files stay on the folder's page
  EXPECT_EQ(plan.topicOfFile["app/lexer.py"], "topic:app/tokens");
  EXPECT_EQ(plan.topicOfFile["app/loose3.py"], "topic:app");

  // Under the threshold nothing is split.
  PlanOptions roomy;
  roomy.subtopicThreshold = 40;
  EXPECT_TRUE(planTopics(analysis, roomy).topics[0].subtopics.empty());
}

TEST(Planner, ASingleTangleOrNoImportsLeavesTheFolderWhole) {
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, std::string>> everyPair;
  for (int i = 0; i < 15; ++i) paths.push_back("lib/m" + std::to_string(10 + i) + ".py");
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = i + 1; j < paths.size(); ++j) everyPair.push_back({paths[i], paths[j]});
  auto tangled = planTopics(analysisOf(paths, everyPair), {});
  ASSERT_EQ(tangled.topics.size(), 1u);
  EXPECT_TRUE(tangled.topics[0].subtopics.empty());
  EXPECT_EQ(tangled.topics[0].files.size(), 15u);

  auto loose = planTopics(analysisOf(paths, {}), {});
  EXPECT_TRUE(loose.topics[0].subtopics.empty());
}

TEST(Planner, SubFoldersStillComeFirstAndKeysNeverCollide) {
  auto analysis = flatFolder();
  // A sub-folder named like an import group: it keeps its key, the group gets another.
  addPythonFiles(analysis, {"app/http/a.py", "app/http/b.py"});
  auto plan = planTopics(analysis, {});
  ASSERT_EQ(plan.topics.size(), 1u);
  std::set<std::string> keys;
  for (const auto& sub : plan.topics[0].subtopics) EXPECT_TRUE(keys.insert(sub.key).second) << sub.key;
  EXPECT_TRUE(keys.count("topic:app/http"));
  EXPECT_TRUE(keys.count("topic:app/http-2"));
  EXPECT_EQ(findTopic(plan.topics, "topic:app/http")->files,
            (std::vector<std::string>{"app/http/a.py", "app/http/b.py"}));
  EXPECT_EQ(findTopic(plan.topics, "topic:app/http-2")->files.size(), 4u);
}

TEST(Planner, AFolderThatOnlyWrapsAnotherIsThatFolder) {
  auto plan = planTopics(analysisOf({"pkg/dist/development/a.py", "pkg/dist/development/b.py",
                                     "pkg/dist/development/lib/c.py", "other/x.py"},
                                    {}),
                         {});
  ASSERT_EQ(plan.topics.size(), 2u);
  const Topic* development = findTopic(plan.topics, "topic:pkg/dist/development");
  ASSERT_NE(development, nullptr);
  EXPECT_EQ(development->title, "Development");
  EXPECT_EQ(development->folder, "pkg/dist/development");
  EXPECT_EQ(development->files.size(), 3u);
  EXPECT_NE(findTopic(plan.topics, "topic:other"), nullptr);
}

// A Java module: src/main/java wraps its packages (beside module-info.java and a stray
// java-templates/ file); the topic is the root package, its packages are its sections,
// titled as packages, implementation packages last.
TEST(Planner, JavaPackagesAreTopicsAndInternalOnesComeLast) {
  std::vector<std::string> paths = {"lib/src/main/java/module-info.java",
                                    "lib/src/main/java-templates/com/acme/lib/internal/Build.java"};
  for (int i = 0; i < 8; ++i) paths.push_back("lib/src/main/java/com/acme/lib/Api" + std::to_string(i) + ".java");
  for (int i = 0; i < 12; ++i)
    paths.push_back("lib/src/main/java/com/acme/lib/internal/Impl" + std::to_string(i) + ".java");
  for (int i = 0; i < 4; ++i)
    paths.push_back("lib/src/main/java/com/acme/lib/stream/Reader" + std::to_string(i) + ".java");
  // The internal package is the most used: it still comes after the API's.
  std::vector<std::pair<std::string, std::string>> imports;
  for (int i = 0; i < 8; ++i)
    imports.emplace_back("lib/src/main/java/com/acme/lib/Api" + std::to_string(i) + ".java",
                         "lib/src/main/java/com/acme/lib/internal/Impl0.java");
  auto plan = planTopics(analysisOf(paths, imports), {});
  const Topic* root = findTopic(plan.topics, "topic:lib/src/main/java/com/acme/lib");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->title, "com.acme.lib");
  ASSERT_EQ(root->subtopics.size(), 2u);
  EXPECT_EQ(root->subtopics[0].title, "com.acme.lib.stream");
  EXPECT_EQ(root->subtopics[1].title, "com.acme.lib.internal");
}

TEST(Planner, WikiJsonNotesAndPagesSteerThePlan) {
  auto analysis = flatFolder();
  PlanOptions options;
  options.wikiJson = R"({"notes": "Read the parser first.",
    "pages": [{"title": "Parsing", "description": "From text to a tree.", "files": ["app/parser.py", "app/lexer.py", "app/tok*.py"]},
              {"title": "Nothing matches", "files": ["nowhere/**"]},
              {"no title": true},
              {"title": "Second claim", "files": ["app/parser.py"]}]})";
  auto plan = planTopics(analysis, options);
  EXPECT_EQ(plan.notes, "Read the parser first.");
  const Topic* parsing = findTopic(plan.topics, "topic:wiki/1");
  ASSERT_NE(parsing, nullptr);
  EXPECT_EQ(parsing->title, "Parsing");
  EXPECT_EQ(parsing->description, "From text to a tree.");
  EXPECT_EQ(parsing->files, (std::vector<std::string>{"app/parser.py", "app/lexer.py", "app/tokens.py"}));
  EXPECT_EQ(plan.topicOfFile["app/parser.py"], "topic:wiki/1");  // the first page that names a file takes it
  ASSERT_NE(findTopic(plan.topics, "topic:wiki/2"), nullptr);
  EXPECT_TRUE(findTopic(plan.topics, "topic:wiki/2")->files.empty());
  const Topic* second = findTopic(plan.topics, "topic:wiki/3");  // the page without a title is no page
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(second->files.empty());
  // What the wiki did not take is planned from the graph: 17 files left in app/, the
  // http cluster and loose files: one cluster alone has no community structure.
  const Topic* app = findTopic(plan.topics, "topic:app");
  ASSERT_NE(app, nullptr);
  ASSERT_EQ(app->subtopics.size(), 0u) << "one cluster is no split";
  EXPECT_EQ(app->files.size(), 17u);

  // Bad JSON is ignored: the plan is the graph's.
  options.wikiJson = "{not json";
  auto fallback = planTopics(analysis, options);
  EXPECT_TRUE(fallback.notes.empty());
  EXPECT_EQ(fallback.topics[0].subtopics.size(), 2u);
}

TEST(Inventory, APublishedNpmPackagesDistIsItsCode) {
  docs::test::TempDir dir;
  fs::path root = dir.path();
  // Only dist/ ships the code: dist is the source, but only the folders its entries name.
  writeFile(root / "router/package.json",
            R"({"name": "router", "main": "./dist/development/index.js",
                "exports": {".": {"import": "./dist/development/index.mjs"}, "./package.json": "./package.json"}})");
  writeFile(root / "router/dist/development/index.js", "export function route() {}\n");
  writeFile(root / "router/dist/development/lib/types.d.ts", "export type Route = string;\n");
  writeFile(root / "router/dist/production/index.js", "export function route() {}\n");
  writeFile(root / "router/dist/node_modules/dep/index.js", "x\n");
  // A src/ beside dist/: dist is a build of it.
  writeFile(root / "withsrc/package.json", R"({"main": "dist/index.js"})");
  writeFile(root / "withsrc/src/index.ts", "export const a = 1;\n");
  writeFile(root / "withsrc/dist/index.js", "exports.a = 1;\n");
  // An entry outside dist/ (the module at the top): dist holds a second build.
  writeFile(root / "toplevel/package.json", R"({"main": "./dist/index.cjs", "module": "./index.js"})");
  writeFile(root / "toplevel/index.js", "export const b = 2;\n");
  writeFile(root / "toplevel/dist/index.cjs", "exports.b = 2;\n");
  // No package.json: dist/ is build output as before.
  writeFile(root / "plain/dist/bundle.js", "var c = 3;\n");
  // Broken JSON changes nothing.
  writeFile(root / "broken/package.json", "{\"main\": ");
  writeFile(root / "broken/dist/index.js", "var d;\n");

  auto paths = pathsOf(takeInventory(root.string(), InventoryLimits{}));
  EXPECT_TRUE(paths.count("router/dist/development/index.js"));
  EXPECT_TRUE(paths.count("router/dist/development/lib/types.d.ts"));
  EXPECT_FALSE(paths.count("router/dist/production/index.js"));
  EXPECT_FALSE(paths.count("router/dist/node_modules/dep/index.js"));
  EXPECT_TRUE(paths.count("withsrc/src/index.ts"));
  EXPECT_FALSE(paths.count("withsrc/dist/index.js"));
  EXPECT_TRUE(paths.count("toplevel/index.js"));
  EXPECT_FALSE(paths.count("toplevel/dist/index.cjs"));
  EXPECT_FALSE(paths.count("plain/dist/bundle.js"));
  EXPECT_FALSE(paths.count("broken/dist/index.js"));

  // The package at the root of the tree (a package folder given to `docsd generate`).
  auto alone = pathsOf(takeInventory((root / "router").string(), InventoryLimits{}));
  EXPECT_TRUE(alone.count("dist/development/index.js"));
  EXPECT_FALSE(alone.count("dist/production/index.js"));
}

TEST(Quality, RepositoryBlobLinksResolveAndTheStrictShareCountsOnlyCode) {
  docs::test::TempDir dir;
  writeFile(fs::path(dir.path()) / "tool/run.py", "import sys\n\n\ndef run(argv):\n    return len(argv)\n");
  Analysis analysis = analysisOf({"tool/run.py"}, {});
  analysis.files[0].lines = 5;
  Symbol run;
  run.name = "run";
  run.kind = "function";
  run.line = 4;
  run.end = 5;
  run.doc = "Counts argv.";  // "argv" exists only in a comment
  analysis.files[0].symbols.push_back(run);
  auto code = [](const std::string& text) {
    return nlohmann::json{{"type", "text"}, {"text", text}, {"marks", nlohmann::json::array({{{"type", "code"}}})}};
  };
  auto block = [](const std::string& url) {
    return nlohmann::json{{"type", "codeBlock"},
                          {"attrs", {{"language", "python"}, {"git_url", url}}},
                          {"content", nlohmann::json::array({{{"type", "text"}, {"text", "def run(argv):"}}})}};
  };
  const std::string base = "https://git.example/acme/tool/blob/0123456789abcdef0123456789abcdef01234567/";
  PageDraft page;
  page.key = "file:tool/run.py";
  page.content = {
      {"type", "doc"},
      {"content", nlohmann::json::array(
                      {block(base + "tool/run.py#L4-L5"),
                       block(base + "tool/run.py#L4-L9"),
                       block("tool/run.py#L1-L1"),
                       {{"type", "paragraph"},
                        {"content", nlohmann::json::array({code("run"), code("argv"), code("tool/run.py")})}}})}};
  auto report = measureQuality(analysis, {page}, dir.path()).toJson();
  EXPECT_EQ(report["source_links"], 3);
  EXPECT_DOUBLE_EQ(report["source_links_resolving_share"].get<double>(), 2.0 / 3.0) << report.dump(2);
  EXPECT_EQ(report["identifiers_named"], 2);  // a path is no identifier: the links check it
  EXPECT_DOUBLE_EQ(report["identifiers_existing_share"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(report["identifiers_in_code_share"].get<double>(), 0.5);
  EXPECT_EQ(report["identifiers_not_in_code_examples"], nlohmann::json::array({"argv"}));
}
