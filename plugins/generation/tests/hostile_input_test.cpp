// Repository content built to break the analysis: JSON nested half a million deep and
// source lines of 80 KB. Each used to overflow the stack (nlohmann::json and std::regex
// recurse per level or per character) and take the whole server down; now each is read
// in bounded time and depth, or set aside with a reason.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/analysis.hpp"
#include "analysis/bounded_json.hpp"
#include "analysis/inventory.hpp"
#include "planning/planner.hpp"
#include "test_support.hpp"
#include "writing/model_writer.hpp"
#include "writing/offline_writer.hpp"
#include "writing/quality_report.hpp"

namespace fs = std::filesystem;
using namespace docs_generation;

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// package.json whose "main" is an array 500,000 deep (just under 1 MiB, the read cap).
std::string deepPackageJson() { return "{\"name\":\"deep\",\"main\":" + nested(500000) + "}"; }

// 300 ordinary lines, then one import whose module name is 80 KB: the average line stays
// short, so only the longest line gives it away.
std::string longLineSource(const std::string& longLine) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += "const value" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  return text + longLine + "\nexport default value1;\n";
}
std::string longJsImport() { return "import x from '" + std::string(80 * 1024, 'a') + "'"; }
std::string longPythonImport() { return "import " + std::string(80 * 1024, 'b'); }

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST(BoundedJson, DepthIsCountedOutsideStringsAndDeepTextIsRefused) {
  EXPECT_EQ(jsonNestingDepth(R"({"a":[1,{"b":"[[[["}]})"), 3u);
  EXPECT_EQ(jsonNestingDepth(R"("\"[[")"), 0u);
  EXPECT_EQ(jsonNestingDepth(nested(600)), kMaxJsonDepth + 1);
  EXPECT_TRUE(parseBoundedJson(nested(kMaxJsonDepth)).is_array());
  EXPECT_TRUE(parseBoundedJson(nested(kMaxJsonDepth + 1)).is_discarded());
  EXPECT_TRUE(parseBoundedJson(nested(500000)).is_discarded());
  EXPECT_TRUE(parseBoundedJson("{not json").is_discarded());
}

TEST(HostileInput, ADeeplyNestedPackageJsonIsReadWithoutCrashing) {
  docs::test::TempDir root;
  write(fs::path(root.path()) / "package.json", deepPackageJson());
  write(fs::path(root.path()) / "index.js", "// The entry.\n\nexport const one = 1;\n");
  auto inventory = takeInventory(root.path(), InventoryLimits{});
  ASSERT_EQ(inventory.files.size(), 2u);
  auto analysis = analyze(root.path(), inventory, AnalysisOptions{});
  ASSERT_EQ(analysis.builds.size(), 1u);
  EXPECT_EQ(analysis.builds[0].kind, "npm");
  EXPECT_EQ(analysis.builds[0].name, "");  // too deep to read: nothing taken from it
  ASSERT_NE(analysis.find("index.js"), nullptr);
  EXPECT_EQ(analysis.find("index.js")->summary, "The entry.");

  // A name of the wrong type is not an error either.
  auto build =
      readBuildText("package.json", R"({"name":["x"],"description":{"a":1},"main":7,"scripts":{"t":"vitest"}})");
  EXPECT_EQ(build.name, "");
  EXPECT_EQ(build.facts, std::vector<std::string>{"script `t`: vitest"});
}

TEST(HostileInput, DeepJsonInWikiJsonAndModelAnswersIsIgnored) {
  Analysis analysis;
  analysis.files.push_back({"a.py", "python", 3, 30, "", {}, {}, {}, {}, false, false, false});
  PlanOptions options;
  options.wikiJson = "{\"pages\":" + nested(500000) + "}";
  auto plan = planTopics(analysis, options);
  EXPECT_FALSE(plan.topics.empty());
  EXPECT_FALSE(parseModelText("{\"paragraphs\":" + nested(500000) + "}").has_value());
}

TEST(HostileInput, An80KbLineInJavaScriptAndPythonIsAnalysedWithoutCrashing) {
  // The import scanners on the long line itself.
  EXPECT_TRUE(extractImports("javascript", longLineSource(longJsImport())).empty());
  EXPECT_TRUE(extractImports("python", longLineSource(longPythonImport())).empty());
  EXPECT_EQ(extractImports("javascript", "import x from '" + std::string(3000, 'a') + "'\n"),
            std::vector<std::string>{std::string(3000, 'a')});
  for (const char* language : {"typescript", "c++", "java", "go", "rust", "ruby", "php", "csharp"})
    EXPECT_NO_THROW(extractImports(language, "import \"" + std::string(80 * 1024, 'c') + "\n")) << language;
  EXPECT_EQ(leadingComment("python", "# " + std::string(80 * 1024, 'd') + "\n").size(), kMaxAnalysedLineBytes - 2);

  // The whole analysis, with the inventory's minified filter out of the way.
  docs::test::TempDir root;
  write(fs::path(root.path()) / "app.js", longLineSource(longJsImport()));
  write(fs::path(root.path()) / "tool.py", longLineSource(longPythonImport()));
  write(fs::path(root.path()) / "CMakeLists.txt", "project(" + std::string(80 * 1024, 'p') + ")\n");
  Inventory inventory;
  for (const char* path : {"CMakeLists.txt", "app.js", "tool.py"}) {
    SourceFile file;
    file.path = path;
    file.language = languageOf(path);
    file.bytes = fs::file_size(fs::path(root.path()) / path);
    file.lines = 302;
    file.build = file.path == "CMakeLists.txt";
    inventory.files.push_back(file);
  }
  auto analysis = analyze(root.path(), inventory, AnalysisOptions{});
  ASSERT_NE(analysis.find("app.js"), nullptr);
  EXPECT_TRUE(analysis.find("app.js")->imports.empty());
  ASSERT_EQ(analysis.builds.size(), 1u);
  EXPECT_EQ(analysis.builds[0].name.size(), 80u * 1024);
}

TEST(HostileInput, TheInventoryJudgesMinifiedFilesByTheirLongestLine) {
  docs::test::TempDir root;
  write(fs::path(root.path()) / "app.js", longLineSource(longJsImport()));
  write(fs::path(root.path()) / "ok.js", longLineSource("const wide = '" + std::string(4000, 'w') + "';"));
  auto inventory = takeInventory(root.path(), InventoryLimits{});
  ASSERT_EQ(inventory.files.size(), 1u);
  EXPECT_EQ(inventory.files[0].path, "ok.js");
  ASSERT_EQ(inventory.skipped.size(), 1u);
  EXPECT_EQ(inventory.skipped[0], "app.js: minified or generated (a line of 80 KB)");
}

TEST(HostileInput, LongModelTextAndPagesAreCheckedWithoutCrashing) {
  Analysis analysis;
  analysis.files.push_back({"a.py",
                            "python",
                            3,
                            30,
                            "",
                            {{"run", "function", "", "()", 1, 2, "", "", "", false}},
                            {},
                            {},
                            {},
                            false,
                            false,
                            false});
  ModelText text;
  text.paragraphs = {"[" + std::string(80 * 1024, 'e'), "`" + std::string(80 * 1024, 'f'),
                     "See [a.py#L1-L2] and `run`."};
  auto check = checkModelText(text, analysis, "a.py");
  EXPECT_TRUE(check.ok) << check.problem;
  text.paragraphs.push_back("[a.py#L9]");
  EXPECT_EQ(checkModelText(text, analysis, "a.py").problem, "cites lines that do not exist: [a.py#L9]");

  EXPECT_FALSE(checkMermaid("flowchart LR\n  A[\"" + std::string(80 * 1024, 'g') + "\n"));
  EXPECT_TRUE(checkMermaid("flowchart LR\n  " + std::string(80 * 1024, 'h') + " --> B\n"));

  analysis.readme = std::string(80 * 1024, 'i') + "." + std::string(80 * 1024, 'j');
  PageDraft page;
  page.content = {
      {"type", "doc"},
      {"content",
       {{{"type", "paragraph"},
         {"content",
          {{{"type", "text"},
            {"text", std::string(80 * 1024, 'k')},
            {"marks",
             {{{"type", "link"}, {"attrs", {{"href", std::string(80 * 1024, 'l') + "#L1-L99999999999999999999999"}}}},
              {{"type", "code"}}}}}}}}}}};
  auto report = measureQuality(analysis, {page}, "/nonexistent");
  EXPECT_EQ(report.sourceLinks, 1u);
  EXPECT_EQ(report.sourceLinksResolved, 0u);
  EXPECT_EQ(report.identifiersNamed, 1u);
}

TEST(HostileInput, ManySpacesInACommentCostLinearTime) {
  auto started = std::chrono::steady_clock::now();
  std::string source = "/* a" + std::string(400 * 1024, ' ') + "b */\nint x;\n";
  EXPECT_EQ(firstSentences(source, 100), "/* a b */ int x;");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
}

TEST(Imports, EveryPatternReadsWhatItUsedTo) {
  EXPECT_EQ(
      extractImports("javascript",
                     "import './styles.css'\nconst a = require ( \"a/b\" ) ;\nimport {x} from 'y' // from \"z\"\n"),
      (std::vector<std::string>{"./styles.css", "a/b", "y"}));
  EXPECT_EQ(extractImports("javascript", "const datefrom 'x'\nrequire('c'\n"), std::vector<std::string>{});
  EXPECT_EQ(extractImports("vue", "import A from './A.vue'\nrequire('no')\n"), std::vector<std::string>{"./A.vue"});
  EXPECT_EQ(extractImports("python", "from . import x\nimport a.b as c\nfrom x importer\n"),
            (std::vector<std::string>{".", "a.b"}));
  EXPECT_EQ(extractImports("c", "  #  include<stdio.h>\n#import \"a.h\"\n#include MACRO\n"),
            (std::vector<std::string>{"stdio.h", "a.h"}));
  EXPECT_EQ(extractImports("kotlin", "import static\nimport staticx.Y\n"),
            (std::vector<std::string>{"static", "staticx.Y"}));
  EXPECT_EQ(extractImports("go", "import \"fmt\"\nimport (\n  _ \"embed\"\n  x \"a/b\" // c\n  \"os\"\n)\n"),
            (std::vector<std::string>{"fmt", "embed", "os"}));
  EXPECT_EQ(extractImports("rust", "pub use a::b;\npub mod c;\nmod d {\n"), (std::vector<std::string>{"a::b", "./c"}));
  EXPECT_EQ(extractImports("ruby", "require 'json'\nrequire_relative('lib/x')\n"),
            (std::vector<std::string>{"json", "./lib/x"}));
  EXPECT_EQ(extractImports("php", "use App\\Models\\User;\n"), std::vector<std::string>{"App/Models/User"});
  EXPECT_EQ(extractImports("csharp", "using System.Text;\nusing X = Y;\n"), std::vector<std::string>{"System.Text"});
}

TEST(BuildFiles, NamesDescriptionsAndTargetsAreReadWithPlainScans) {
  auto cmake = readBuildText(
      "CMakeLists.txt", "PROJECT ( demo.app VERSION 1)\nadd_library(core a.cpp)\nADD_EXECUTABLE (tool main.cpp)\n");
  EXPECT_EQ(cmake.name, "demo.app");
  EXPECT_EQ(cmake.facts, (std::vector<std::string>{"library core", "executable tool"}));
  // The project's name from the command, never from a word of a comment before it.
  EXPECT_EQ(readBuildText("CMakeLists.txt",
                          "# Build the project (with care) and its tests.\n"
                          "cmake_minimum_required(VERSION 3.14)\nset(MY_PROJECT x)\n"
                          "project(fmt CXX)\n")
                .name,
            "fmt");
  auto python = readBuildText("pyproject.toml", "[project]\nname = \"shop-api\"\ndescription = 'A shop.'\n");
  EXPECT_EQ(python.name, "shop-api");
  EXPECT_EQ(python.description, "A shop.");
  EXPECT_EQ(readBuildText("setup.cfg", "[metadata]\nname: tools\n").name, "tools");
  EXPECT_EQ(readBuildText("go.mod", "module example.com/x\n\ngo 1.21\n").name, "example.com/x");
  auto cargo = readBuildText("Cargo.toml", "[package]\nname = \"cli\"\ndescription = \"Does things\"\n");
  EXPECT_EQ(cargo.name, "cli");
  EXPECT_EQ(cargo.description, "Does things");
  EXPECT_EQ(readBuildText("Makefile", "all:\n").kind, "Makefile");
}
