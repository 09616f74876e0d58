// The generation library without a server: unpacking (and its refusals), ignore rules,
// import extraction, comments, planning and the writer's output.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <docs/config.hpp>
#include <docs/support/chat_model.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include "analysis/analysis.hpp"
#include "analysis/analysis_cache.hpp"
#include "analysis/analysis_service.hpp"
#include "analysis/inventory.hpp"
#include "fake_model.hpp"
#include "generate_cli.hpp"
#include "git_bomb.hpp"
#include "git_server.hpp"
#include "planning/planner.hpp"
#include "sources/clone_policy.hpp"
#include "sources/git_source.hpp"
#include "sources/source_archive.hpp"
#include "test_support.hpp"
#include "writing/model_writer.hpp"
#include "writing/offline_writer.hpp"
#include "writing/quality_report.hpp"
#include "zip_builder.hpp"

namespace fs = std::filesystem;
using namespace docs_generation;
using docs::test::ZipEntry;

namespace {

// A test server's address (or a local repository) checked as the configured GitHub would
// be: resolved once and pinned, like every clone.
CloneTarget pinned(const std::string& url) {
  ClonePolicy policy;
  policy.trustedBase = url;
  policy.allowFileUrls = true;
  auto checked = checkCloneUrl(url, policy);
  EXPECT_FALSE(checked.refused) << url << ": " << checked.refused.value_or("");
  return checked.target;
}

class Unpack : public ::testing::Test {
 protected:
  std::string zip(const std::vector<ZipEntry>& entries) {
    std::string path = dir_.path() + "/in-" + std::to_string(n_++) + ".zip";
    docs::test::writeZip(path, entries);
    return path;
  }
  std::string target() { return dir_.path() + "/out-" + std::to_string(n_++); }
  // Nothing was written next to the output folder or above it.
  void expectNothingOutside() {
    for (const auto& entry : fs::recursive_directory_iterator(dir_.path())) {
      std::string name = entry.path().filename().string();
      EXPECT_TRUE(name.rfind("in-", 0) == 0 || name.rfind("out-", 0) == 0 ||
                  entry.path().string().find("/out-") != std::string::npos)
          << entry.path();
    }
    EXPECT_FALSE(fs::exists(fs::path(dir_.path()).parent_path() / "evil.txt"));
  }
  docs::test::TempDir dir_;
  int n_ = 0;
};

}  // namespace

TEST(EntryNames, OnlyNamesInsideTheFolder) {
  for (std::string good : {"a.txt", "src/a.py", "a/b/c/", "a..b/c", ".hidden"})
    EXPECT_TRUE(safeEntryName(good)) << good;
  for (const std::string& bad :
       std::vector<std::string>{"../evil.txt", "a/../../evil", "/etc/passwd", "a\\..\\evil", "C:evil", "c:/evil",
                                "a//b", "./a", "a/./b", "", std::string("a\0b", 3)})
    EXPECT_FALSE(safeEntryName(bad)) << bad;
}

TEST_F(Unpack, ARegularArchiveUnpacksAndASharedTopFolderIsStripped) {
  auto out = target();
  auto result = unpackZip(
      zip({{"repo-main/README.md", "# Hi"}, {"repo-main/src/a.py", "print(1)\n"}, {"repo-main/src/", ""}}), out, {});
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.files, 2u);
  EXPECT_TRUE(fs::exists(out + "/README.md"));
  EXPECT_TRUE(fs::exists(out + "/src/a.py"));
}

TEST_F(Unpack, ZipSlipNamesRefuseTheWholeArchive) {
  for (std::string name :
       {"../evil.txt", "ok/../../evil.txt", "/tmp/evil.txt", "..\\evil.txt", "C:\\evil.txt", "C:evil.txt"}) {
    auto out = target();
    auto result = unpackZip(zip({{"fine.txt", "x"}, {name, "evil"}}), out, {});
    EXPECT_FALSE(result.ok) << name;
    EXPECT_NE(result.error.find("outside"), std::string::npos) << result.error;
    EXPECT_FALSE(fs::exists(out)) << name;
  }
  expectNothingOutside();
}

TEST_F(Unpack, SymbolicLinksAreSkipped) {
  auto out = target();
  auto result = unpackZip(zip({{"a.txt", "x"}, {"link", "/etc/passwd", true}, {"dir/up", "../../..", true}}), out, {});
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.skipped.size(), 2u);
  EXPECT_FALSE(fs::exists(fs::path(out) / "link"));
  EXPECT_FALSE(fs::is_symlink(fs::path(out) / "dir" / "up"));
}

TEST_F(Unpack, BombsAndHugeArchivesAreRefusedWhileWriting) {
  auto out = target();
  auto result = unpackZip(zip({{"zeros.bin", std::string(20 << 20, '\0')}}), out, {});
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("zip bomb"), std::string::npos) << result.error;
  EXPECT_FALSE(fs::exists(out));
  ArchiveLimits small;
  small.maxTotalBytes = 1000;
  small.maxRatio = 1 << 30;
  out = target();
  result = unpackZip(zip({{"a.txt", std::string(600, 'a')}, {"b.txt", std::string(600, 'b')}}), out, small);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("more than"), std::string::npos) << result.error;
}

TEST_F(Unpack, TooManyEntriesCorruptAndNonZipAreClearErrors) {
  std::vector<ZipEntry> many;
  for (int i = 0; i < 1200; ++i) many.push_back({"f" + std::to_string(i), "x"});
  ArchiveLimits limits;
  limits.maxEntries = 1000;
  auto result = unpackZip(zip(many), target(), limits);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("more than 1000 entries"), std::string::npos) << result.error;

  std::string notZip = dir_.path() + "/not.zip";
  std::ofstream(notZip) << "<html>this is not a zip</html>";
  result = unpackZip(notZip, target(), {});
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("not a readable ZIP"), std::string::npos) << result.error;

  // A good archive with its central directory damaged.
  std::string path = zip({{"a.txt", std::string(5000, 'a')}, {"b.txt", "bbb"}});
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(0, std::ios::end);
  auto size = static_cast<long>(file.tellg());
  file.seekp(size - 40);
  file.write("\xff\xff\xff\xff\xff\xff\xff\xff", 8);
  file.close();
  result = unpackZip(path, target(), {});
  EXPECT_FALSE(result.ok);
  EXPECT_FALSE(result.error.empty());
}

TEST(Ignore, GitignoreRules) {
  IgnoreRules rules;
  rules.add("", "*.log\n/build/\nsecret.txt\n!keep.log\ndocs/**/*.tmp\n");
  rules.add("sub", "local.cfg\n");
  EXPECT_TRUE(rules.ignored("a.log", false));
  EXPECT_TRUE(rules.ignored("x/y/a.log", false));
  EXPECT_FALSE(rules.ignored("keep.log", false));
  EXPECT_TRUE(rules.ignored("build", true));
  EXPECT_FALSE(rules.ignored("src/build", true));
  EXPECT_TRUE(rules.ignored("x/secret.txt", false));
  EXPECT_TRUE(rules.ignored("docs/a/b/c.tmp", false));
  EXPECT_TRUE(rules.ignored("sub/local.cfg", false));
  EXPECT_FALSE(rules.ignored("local.cfg", false));
}

TEST(Imports, PerLanguageFamily) {
  EXPECT_EQ(extractImports("python", "import os\nfrom .models import User\nfrom a.b import c\n"),
            (std::vector<std::string>{"os", ".models", "a.b"}));
  EXPECT_EQ(extractImports("typescript", "import x from './x';\nimport {y} from \"../y\"\nconst z = require('z')\n"),
            (std::vector<std::string>{"./x", "../y", "z"}));
  EXPECT_EQ(extractImports("c++", "#include <vector>\n#include \"util/strings.hpp\"\n"),
            (std::vector<std::string>{"vector", "util/strings.hpp"}));
  EXPECT_EQ(extractImports("go", "package x\nimport (\n  \"fmt\"\n  h \"net/http\"\n)\n"),
            (std::vector<std::string>{"fmt", "net/http"}));
  EXPECT_EQ(extractImports("java", "import java.util.List;\nimport static a.B.c;\n"),
            (std::vector<std::string>{"java.util.List", "a.B.c"}));
  EXPECT_EQ(extractImports("rust", "use crate::net::Socket;\nmod parser;\n"),
            (std::vector<std::string>{"crate::net::Socket", "./parser"}));
}

TEST(Comments, LeadingCommentSkipsLicences) {
  EXPECT_EQ(
      leadingComment("c++", "// Copyright 2020 Someone. Licensed under MIT.\n\n// Parses HTTP requests.\n\nint x;\n"),
      "Parses HTTP requests.");
  // Right above a declaration, the comment is that declaration's, not the file's.
  EXPECT_EQ(leadingComment("c++", "// Copyright 2020 Someone. Licensed under MIT.\n\n// The port.\nint x;\n"), "");
  EXPECT_EQ(leadingComment("c++", "// Parses HTTP requests.\n#include <string>\nint x;\n"), "Parses HTTP requests.");
  EXPECT_EQ(leadingComment("python", "#!/usr/bin/env python\n\"\"\"Tools for parsing.\n\nMore.\"\"\"\nimport os\n"),
            "Tools for parsing.\n\nMore.");
  EXPECT_EQ(leadingComment("javascript", "/**\n * The router.\n */\nexport {}\n"), "The router.");
  EXPECT_EQ(leadingComment("javascript", "/**\n * Adds two numbers.\n */\nexport function add(a, b) {}\n"), "");
  EXPECT_EQ(leadingComment("javascript", "/**\n * @file Adds numbers.\n */\nexport function add(a, b) {}\n"),
            "Adds numbers.");
  EXPECT_EQ(
      leadingComment("javascript", "/**\n * @module adder\n *\n * Adds numbers.\n */\nexport function add(a, b) {}\n"),
      "Adds numbers.");
  EXPECT_EQ(leadingComment("go", "package main\n\nfunc main() {}\n"), "");
}

// TypeScript compiled to ES modules imports its own files by the name they will have:
// "./util.js" for util.ts; "./config.dev" names config.dev.ts by its full stem.
TEST(Analysis, RelativeImportsFindTheFileWithoutOrWithAnotherExtension) {
  docs::test::TempDir dir;
  auto write = [&](const std::string& path, const std::string& text) {
    fs::create_directories((fs::path(dir.path()) / path).parent_path());
    std::ofstream(fs::path(dir.path()) / path) << text;
  };
  write("src/util.ts", "export function twice(n: number) { return 2 * n; }\n");
  write("src/config.dev.ts", "export const port = 8080;\n");
  write("src/main.ts",
        "import { twice } from './util.js';\nimport { port } from './config.dev';\nconsole.log(twice(port));\n");
  auto analysis = analyze(dir.path(), takeInventory(dir.path(), {}), {});
  const auto* main = analysis.find("src/main.ts");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->dependsOn, (std::vector<std::string>{"src/config.dev.ts", "src/util.ts"}));
  EXPECT_EQ(analysis.find("src/util.ts")->usedBy, (std::vector<std::string>{"src/main.ts"}));
}

TEST(Writer, PagesOfASmallProjectAreWhatTheAnalysisImplies) {
  docs::test::TempDir dir;
  auto write = [&](const std::string& path, const std::string& text) {
    fs::create_directories((fs::path(dir.path()) / path).parent_path());
    std::ofstream(fs::path(dir.path()) / path) << text;
  };
  write("README.md", "# Shop\n\nShop sells things online.\n");
  write("shop/models.py",
        "\"\"\"Data models of the shop.\"\"\"\n\nclass Product:\n    \"\"\"A thing for sale.\"\"\"\n    pass\n");
  write("shop/api.py",
        "\"\"\"HTTP handlers.\"\"\"\nfrom .models import Product\n\ndef list_products():\n    \"\"\"Every "
        "product.\"\"\"\n    return [Product()]\n");
  write("reports/report.py",
        "\"\"\"Sales report.\"\"\"\nfrom shop.api import list_products\n\ndef main():\n    print(list_products())\n");
  write("node_modules/x/index.js", "module.exports = 1\n");
  write("shop/bad.py", std::string("\"\"\"Bytes \xff\xfe here.\"\"\"\n"));
  auto inventory = takeInventory(dir.path(), {});
  for (const auto& f : inventory.files) EXPECT_EQ(f.path.find("node_modules"), std::string::npos);
  auto analysis = analyze(dir.path(), inventory, {});
  EXPECT_EQ(analysis.readme, "Shop sells things online.");
  const auto* api = analysis.find("shop/api.py");
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->summary, "HTTP handlers.");
  EXPECT_EQ(api->dependsOn, (std::vector<std::string>{"shop/models.py"}));
  ASSERT_FALSE(api->symbols.empty());
  EXPECT_EQ(api->symbols[0].name, "list_products");
  EXPECT_EQ(api->symbols[0].doc, "Every product.");
  EXPECT_EQ(analysis.find("shop/models.py")->usedBy, (std::vector<std::string>{"shop/api.py"}));
  EXPECT_EQ(analysis.find("reports/report.py")->dependsOn, (std::vector<std::string>{"shop/api.py"}));
  EXPECT_NE(analysis.find("shop/bad.py")->summary.find("\xEF\xBF\xBD"), std::string::npos);  // replaced, not kept

  auto plan = planTopics(analysis, {});
  ASSERT_EQ(plan.topics.size(), 2u);
  EXPECT_EQ(plan.topics[0].key, "topic:shop");  // depended on by reports
  EXPECT_EQ(plan.topicGraph["topic:reports"]["topic:shop"], 1);
  auto pages = planPages(analysis, plan, "en");
  EXPECT_EQ(pages[0].key, "overview");
  WriterContext context;
  context.sourceRoot = dir.path();
  context.sourceUrl = [](const std::string& p, int a, int b) {
    return p + "#L" + std::to_string(a) + "-L" + std::to_string(b);
  };
  context.pageHref = [](const std::string& key) { return "#" + key; };
  int mermaid = 0;
  for (auto& page : pages) {
    writePage(page, analysis, plan, context);
    std::string text = page.content.dump();
    // Every code block language is one the editor registers, and every diagram is in the checked subset.
    std::function<void(const docs::ydoc::Json&)> visit = [&](const docs::ydoc::Json& node) {
      if (node.value("type", "") == "codeBlock" && node["attrs"]["language"] == "mermaid") {
        ++mermaid;
        std::string error;
        EXPECT_TRUE(checkMermaid(node["content"][0]["text"], &error)) << error;
      }
      if (node.contains("content"))
        for (const auto& child : node["content"]) visit(child);
    };
    visit(page.content);
  }
  EXPECT_GE(mermaid, 1);
  std::string overview = pages[0].content.dump();
  EXPECT_NE(overview.find("Shop sells things online."), std::string::npos);
  EXPECT_NE(overview.find("#topic:shop"), std::string::npos);
  auto apiPage =
      std::find_if(pages.begin(), pages.end(), [](const PageDraft& p) { return p.key == "file:shop/api.py"; });
  ASSERT_NE(apiPage, pages.end());
  std::string text = apiPage->content.dump();
  EXPECT_NE(text.find("shop/api.py#L4-L6"), std::string::npos) << text;
  EXPECT_NE(text.find("Every product."), std::string::npos);
  // The quality figures of this tree: every identifier, link and diagram checks out.
  auto report = measureQuality(analysis, pages, dir.path()).toJson();
  EXPECT_EQ(report["identifiers_existing_share"], 1.0) << report.dump();
  EXPECT_EQ(report["source_links_resolving_share"], 1.0) << report.dump();
  EXPECT_EQ(report["diagrams_valid_share"], 1.0) << report.dump();
  EXPECT_GT(report["source_links"].get<int>(), 0);
  EXPECT_GT(report["identifiers_named"].get<int>(), 0);
  // A page citing lines past the end of a file, or a made-up name, is caught.
  PageDraft broken = pages[0];
  broken.content = {{"type", "doc"},
                    {"content",
                     {{{"type", "paragraph"},
                       {"content",
                        {{{"type", "text"}, {"text", "no_such_function"}, {"marks", {{{"type", "code"}}}}},
                         {{"type", "text"},
                          {"text", "x"},
                          {"marks", {{{"type", "link"}, {"attrs", {{"href", "shop/api.py#L4-L999"}}}}}}}}}}}}};
  auto bad = measureQuality(analysis, {broken}, dir.path()).toJson();
  EXPECT_LT(bad["identifiers_existing_share"].get<double>(), 1.0);
  EXPECT_LT(bad["source_links_resolving_share"].get<double>(), 1.0);
  // German phrases.
  PageDraft german = pages[0];
  context.language = "de";
  writePage(german, analysis, plan, context);
  EXPECT_NE(german.content.dump().find("Auf einen Blick"), std::string::npos);
}

TEST(Mermaid, TheCheckedSubset) {
  EXPECT_TRUE(checkMermaid("flowchart LR\n  n0[\"a\"]\n  n1[\"b\"]\n  n0 -->|2| n1\n"));
  EXPECT_FALSE(checkMermaid("graph LR\n a-->b\n"));
  EXPECT_FALSE(checkMermaid("flowchart LR\n  n0[\"a\"] --> click n0 call evil()\n"));
  EXPECT_FALSE(checkMermaid(""));
}

// ---- Cloning: which addresses, and what a clone may bring along ----

TEST(ClonePolicy, NonPublicAddressesAreRecognised) {
  for (const char* address : {"127.0.0.1", "10.0.0.8", "172.16.5.4", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                              "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12::3",
                              "::ffff:127.0.0.1", "::ffff:10.1.1.1", "64:ff9b::7f00:1", "not-an-address"})
    EXPECT_TRUE(docs_generation::isNonPublicAddress(address)) << address;
  for (const char* address : {"140.82.112.3", "8.8.8.8", "172.32.0.1", "2606:50c0:8000::153", "::ffff:140.82.112.3"})
    EXPECT_FALSE(docs_generation::isNonPublicAddress(address)) << address;
}

TEST(ClonePolicy, OnlyTheConfiguredGithubAndPublicAllowedHosts) {
  docs_generation::ClonePolicy policy;
  policy.trustedBase = "http://127.0.0.1:8123";
  policy.allowedHosts = {"github.com", "localhost", "127.0.0.1"};
  using docs_generation::refuseCloneUrl;
  // The configured GitHub is trusted even on loopback and over http.
  EXPECT_FALSE(refuseCloneUrl("http://127.0.0.1:8123/acme/widgets", policy));
  // The same host on another port or scheme is not that GitHub.
  EXPECT_TRUE(refuseCloneUrl("http://127.0.0.1:8124/acme/widgets", policy));
  EXPECT_TRUE(refuseCloneUrl("https://127.0.0.1:8123/acme/widgets", policy));
  // Allowed names that resolve to loopback, and literal private addresses, are refused.
  auto local = refuseCloneUrl("https://localhost/acme/widgets", policy);
  ASSERT_TRUE(local);
  EXPECT_NE(local->find("private or local"), std::string::npos) << *local;
  EXPECT_TRUE(refuseCloneUrl("https://127.0.0.1/acme/widgets", policy));
  EXPECT_NE(refuseCloneUrl("https://example.org/acme/widgets", policy)->find("not allowed"), std::string::npos);
  EXPECT_NE(refuseCloneUrl("http://github.com/acme/widgets", policy)->find("https"), std::string::npos);
  EXPECT_NE(refuseCloneUrl("file:///etc", policy)->find("file://"), std::string::npos);
  EXPECT_NE(refuseCloneUrl("https://user:secret@github.com/a/b", policy)->find("credentials"), std::string::npos);
  EXPECT_TRUE(refuseCloneUrl("ssh://git@github.com/a/b", policy));
  EXPECT_TRUE(refuseCloneUrl("github.com/a/b", policy));
  EXPECT_TRUE(refuseCloneUrl("https://[::1]/a/b", policy));
  policy.allowFileUrls = true;
  EXPECT_FALSE(refuseCloneUrl("file:///srv/repos/a", policy));
}

TEST(ClonePolicy, ACheckResolvesOnceAndKeepsWhatItChecked) {
  ClonePolicy policy;
  policy.allowedHosts = {"rebind.test", "10.1.2.3"};
  std::vector<std::vector<std::string>> answers;
  int lookups = 0;
  policy.resolve = [&](const std::string& host) {
    EXPECT_EQ(host, "rebind.test");
    return answers.at(lookups++);
  };
  // One private address among public ones is enough to refuse.
  answers = {
      {"93.184.215.14", "127.0.0.1"}, {"2606:50c0:8000::153", "::1"}, {}, {"93.184.215.14", "2606:50c0:8000::153"}};
  EXPECT_NE(refuseCloneUrl("https://rebind.test/a/b", policy)->find("private or local"), std::string::npos);
  EXPECT_NE(refuseCloneUrl("https://rebind.test/a/b", policy)->find("private or local"), std::string::npos);
  EXPECT_NE(refuseCloneUrl("https://rebind.test/a/b", policy)->find("does not resolve"), std::string::npos);
  auto checked = checkCloneUrl("https://REBIND.test:8443/a/b", policy);
  ASSERT_FALSE(checked.refused) << *checked.refused;
  EXPECT_EQ(checked.target.host, "rebind.test");
  EXPECT_EQ(checked.target.port, "8443");
  EXPECT_EQ(checked.target.addresses, (std::vector<std::string>{"93.184.215.14", "2606:50c0:8000::153"}));
  EXPECT_EQ(lookups, 4);
  // A numeric host is not looked up (and still checked).
  EXPECT_TRUE(refuseCloneUrl("https://10.1.2.3/a/b", policy));
  EXPECT_EQ(lookups, 4);
  // The configured GitHub is not checked, but pinned to its one lookup all the same.
  policy.trustedBase = "http://git.rebind.test:8123";
  policy.resolve = [&](const std::string& host) {
    EXPECT_EQ(host, "git.rebind.test");
    ++lookups;
    return std::vector<std::string>{"10.0.0.7"};
  };
  checked = checkCloneUrl("http://git.rebind.test:8123/acme/widgets", policy);
  ASSERT_FALSE(checked.refused) << *checked.refused;
  EXPECT_EQ(checked.target.addresses, std::vector<std::string>{"10.0.0.7"});
  EXPECT_EQ(checked.target.port, "8123");
  EXPECT_EQ(lookups, 5);
  // Local sources have nothing to connect to.
  policy.allowFileUrls = true;
  checked = checkCloneUrl("file:///srv/repos/a", policy);
  ASSERT_FALSE(checked.refused);
  EXPECT_TRUE(checked.target.host.empty());
  EXPECT_TRUE(checked.target.addresses.empty());
}

// DNS rebinding: the name answers a public address to the check and 127.0.0.1 to whoever
// asks next. The clone, the fetch and the look at the remote HEAD connect to the address
// checked and never ask again.
TEST(ClonePolicy, ARebindingNameIsConnectedAtTheAddressChecked) {
  ClonePolicy policy;
  policy.allowedHosts = {"rebind.test"};
  int lookups = 0;
  policy.resolve = [&](const std::string&) {
    return ++lookups == 1 ? std::vector<std::string>{"93.184.215.14"} : std::vector<std::string>{"127.0.0.1"};
  };
  auto checked = checkCloneUrl("https://rebind.test/acme/widgets", policy);
  ASSERT_FALSE(checked.refused) << *checked.refused;
  ASSERT_EQ(lookups, 1);
  std::vector<std::string> connections;
  checked.target.connect = [&](const std::string& address, const std::string& port) {
    connections.push_back(address + " port " + port);
    errno = ECONNREFUSED;  // no network in tests; where it went is the point
    return -1;
  };
  docs::test::TempDir work;
  auto cloned = cloneRepository(checked.target, work.path() + "/clone", std::nullopt, {});
  EXPECT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("could not connect to rebind.test at 93.184.215.14"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/clone"));
  EXPECT_EQ(remoteHead(checked.target, std::nullopt, {}), std::nullopt);
  // A fetch into an existing clone goes the same way.
  docs::test::GitHttpServer server;
  server.createRepository("acme", "widgets", {{"README.md", "# Widgets\n"}});
  ASSERT_TRUE(cloneRepository(pinned(server.url() + "/acme/widgets"), work.path() + "/local", std::nullopt, {}).ok);
  auto fetched = fetchLatest(work.path() + "/local", checked.target, std::nullopt, {});
  EXPECT_FALSE(fetched.ok);
  EXPECT_EQ(connections, std::vector<std::string>(3, "93.184.215.14 port 443"));
  EXPECT_EQ(lookups, 1);
  // Had anything asked again, the answer would have been refused.
  EXPECT_NE(refuseCloneUrl("https://rebind.test/acme/widgets", policy)->find("private or local"), std::string::npos);
}

TEST(ClonePolicy, LineLinksUseTheRepositoryAtItsCommit) {
  EXPECT_EQ(docs_generation::sourceLineUrl("https://github.com/acme/widgets.git", "abc123", "src/a.py", 3, 9),
            "https://github.com/acme/widgets/blob/abc123/src/a.py#L3-L9");
  EXPECT_EQ(docs_generation::sourceLineUrl("", "", "src/a.py", 3, 9), "src/a.py#L3-L9");
}

TEST(GitSource, CloneDropsLinksFetchMovesOnAndDiffNamesTheChanges) {
  docs::test::GitHttpServer server;
  auto first = server.createRepository("acme", "widgets",
                                       {{"README.md", "# Widgets\n"},
                                        {"src/a.py", "def a():\n    return 1\n"},
                                        {"src/b.py", "def b():\n    return 2\n"}});
  // A link out of the tree, committed with git itself.
  docs::test::TempDir work;
  std::string checkout = work.path() + "/clone";
  auto cloned = docs_generation::cloneRepository(pinned(server.url() + "/acme/widgets"), checkout, std::nullopt, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  EXPECT_EQ(cloned.commit, first);
  EXPECT_EQ(cloned.branch, "main");
  EXPECT_TRUE(fs::exists(checkout + "/src/a.py"));
  // The URL is the only remote, and it carries no credentials.
  std::ifstream config(checkout + "/.git/config");
  std::string text((std::istreambuf_iterator<char>(config)), {});
  EXPECT_EQ(text.find("token"), std::string::npos);

  auto second =
      server.commit("acme", "widgets",
                    {{"src/a.py", "def a():\n    return 10\n"}, {"src/c.py", "def c():\n    pass\n"}}, {"src/b.py"});
  auto fetched = docs_generation::fetchLatest(checkout, pinned(server.url() + "/acme/widgets"), std::nullopt, {});
  ASSERT_TRUE(fetched.ok) << fetched.error;
  EXPECT_EQ(fetched.commit, second);
  EXPECT_FALSE(fs::exists(checkout + "/src/b.py"));
  std::ifstream a(checkout + "/src/a.py");
  std::string aText((std::istreambuf_iterator<char>(a)), {});
  EXPECT_NE(aText.find("return 10"), std::string::npos);
  std::map<std::string, char> changes;
  for (const auto& change : docs_generation::changedFiles(checkout, first, second))
    changes[change.path] = change.status;
  EXPECT_EQ(changes, (std::map<std::string, char>{{"src/a.py", 'M'}, {"src/b.py", 'D'}, {"src/c.py", 'A'}}));
}

TEST(GitSource, PrivateRepositoriesNeedTheTokenAndRedirectsAreNotFollowed) {
  docs::test::GitHttpServer server("s3cret-installation-token");
  server.createRepository("acme", "private", {{"main.go", "package main\n"}});
  docs::test::TempDir work;
  auto refused =
      docs_generation::cloneRepository(pinned(server.url() + "/acme/private"), work.path() + "/a", std::nullopt, {});
  EXPECT_FALSE(refused.ok);
  EXPECT_FALSE(fs::exists(work.path() + "/a"));
  docs_generation::GitCredentials token{"x-access-token", "s3cret-installation-token"};
  auto cloned = docs_generation::cloneRepository(pinned(server.url() + "/acme/private"), work.path() + "/b", token, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  std::ifstream config(work.path() + "/b/.git/config");
  std::string text((std::istreambuf_iterator<char>(config)), {});
  EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
  EXPECT_EQ(cloned.error.find("s3cret"), std::string::npos);
  auto redirected =
      docs_generation::cloneRepository(pinned(server.url() + "/redirect/acme/private"), work.path() + "/c", token, {});
  EXPECT_FALSE(redirected.ok);
  EXPECT_NE(redirected.error.find("cannot redirect"), std::string::npos) << redirected.error;
  EXPECT_EQ(redirected.error.find("s3cret"), std::string::npos);
}

// Real connections: a name for the test server that the check sees at 127.0.0.1 (where it
// listens) and any later lookup at 127.0.0.2 (where nothing does).
TEST(GitSource, ConnectionsGoToTheCheckedAddressAndNowhereElse) {
  docs::test::GitHttpServer server;
  auto first = server.createRepository("acme", "widgets", {{"README.md", "# Widgets\n"}});
  std::string base = "http://git.rebind.test:" + std::to_string(server.port());
  ClonePolicy policy;
  policy.trustedBase = base;
  int lookups = 0;
  policy.resolve = [&](const std::string&) {
    return std::vector<std::string>{++lookups == 1 ? "127.0.0.1" : "127.0.0.2"};
  };
  auto checked = checkCloneUrl(base + "/acme/widgets", policy);
  ASSERT_FALSE(checked.refused) << *checked.refused;
  docs::test::TempDir work;
  auto cloned = cloneRepository(checked.target, work.path() + "/clone", std::nullopt, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  EXPECT_EQ(cloned.commit, first);
  EXPECT_EQ(remoteHead(checked.target, std::nullopt, {}), first);
  auto second = server.commit("acme", "widgets", {{"README.md", "# Widgets 2\n"}});
  auto fetched = fetchLatest(work.path() + "/clone", checked.target, std::nullopt, {});
  ASSERT_TRUE(fetched.ok) << fetched.error;
  EXPECT_EQ(fetched.commit, second);
  EXPECT_EQ(lookups, 1);
  // A new check takes the new answer, and the clone goes there (and finds nothing).
  auto moved = checkCloneUrl(base + "/acme/widgets", policy);
  ASSERT_FALSE(moved.refused);
  auto refused = cloneRepository(moved.target, work.path() + "/again", std::nullopt, {});
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("could not connect to git.rebind.test at 127.0.0.2"), std::string::npos)
      << refused.error;

  // libgit2 asked to connect anywhere but the checked host and port (a redirect to
  // elsewhere would be that) is refused before any connection.
  CloneTarget elsewhere = checked.target;
  elsewhere.url = "http://localhost:" + std::to_string(server.port()) + "/acme/widgets";
  auto bounced = cloneRepository(elsewhere, work.path() + "/elsewhere", std::nullopt, {});
  EXPECT_FALSE(bounced.ok);
  EXPECT_NE(bounced.error.find("refusing to connect to localhost"), std::string::npos) << bounced.error;
  CloneTarget otherPort = checked.target;
  otherPort.port = std::to_string(server.port() + 1);
  EXPECT_NE(cloneRepository(otherPort, work.path() + "/port", std::nullopt, {}).error.find("refusing to connect"),
            std::string::npos);
  // A target nobody checked has no addresses: nothing is connected to.
  CloneTarget unchecked;
  unchecked.url = server.url() + "/acme/widgets";
  EXPECT_NE(cloneRepository(unchecked, work.path() + "/unchecked", std::nullopt, {}).error.find("refusing to connect"),
            std::string::npos);
}

TEST(GitSource, SymbolicLinksInARepositoryAreRemovedAfterCheckout) {
  docs::test::TempDir work;
  std::string repo = work.path() + "/repo";
  fs::create_directories(repo);
  auto git = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"git", "-C", repo};
    argv.insert(argv.end(), args.begin(), args.end());
    auto [status, output] = docs::test::runCommand(argv, {{"GIT_AUTHOR_NAME", "T"},
                                                          {"GIT_AUTHOR_EMAIL", "t@e"},
                                                          {"GIT_COMMITTER_NAME", "T"},
                                                          {"GIT_COMMITTER_EMAIL", "t@e"},
                                                          {"HOME", "/nonexistent"}});
    ASSERT_EQ(status, 0) << output;
  };
  git({"init", "-q", "--initial-branch=main"});
  std::ofstream(repo + "/ok.txt") << "fine\n";
  fs::create_symlink("/etc/passwd", repo + "/passwd");
  fs::create_symlink("../../..", repo + "/up");
  git({"add", "-A"});
  git({"commit", "-q", "-m", "links"});
  auto cloned = docs_generation::cloneRepository(pinned("file://" + repo), work.path() + "/clone", std::nullopt, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  EXPECT_TRUE(fs::exists(work.path() + "/clone/ok.txt"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(work.path() + "/clone/passwd")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(work.path() + "/clone/up")));
  EXPECT_EQ(cloned.removedLinks.size(), 2u);
}

TEST(GenerateCli, ClonesOnlyWhatTheRulesAllow) {
  docs::test::GitHttpServer server;
  auto commit = server.createRepository(
      "acme", "tool", {{"tool.py", "\"\"\"A tool.\"\"\"\n\ndef run():\n    \"\"\"Run it.\"\"\"\n    return 1\n"}});
  docs::test::TempDir out;
  std::ostringstream stdoutText, stderrText;
  // Loopback is not GitHub unless configured as such.
  ::unsetenv("DOCS_GITHUB_URL");
  EXPECT_EQ(runGenerateCli({server.url() + "/acme/tool", "--out", out.path() + "/a"}, stdoutText, stderrText), 1);
  EXPECT_NE(stderrText.str().find("https"), std::string::npos) << stderrText.str();
  EXPECT_FALSE(fs::exists(out.path() + "/a"));
  EXPECT_EQ(runGenerateCli({"https://example.org/acme/tool", "--out", out.path() + "/b"}, stdoutText, stderrText), 1);
  EXPECT_NE(stderrText.str().find("not allowed"), std::string::npos) << stderrText.str();
  EXPECT_EQ(runGenerateCli({"file:///etc", "--out", out.path() + "/c"}, stdoutText, stderrText), 1);
  EXPECT_NE(stderrText.str().find("file://"), std::string::npos) << stderrText.str();
  // Configured as GitHub (GitHub Enterprise, tests), it is cloned and its lines are linked.
  ::setenv("DOCS_GITHUB_URL", server.url().c_str(), 1);
  int status = runGenerateCli({server.url() + "/acme/tool", "--out", out.path() + "/d"}, stdoutText, stderrText);
  ::unsetenv("DOCS_GITHUB_URL");
  ASSERT_EQ(status, 0) << stderrText.str();
  std::string all;
  for (const auto& entry : fs::recursive_directory_iterator(out.path() + "/d"))
    if (entry.path().extension() == ".md") {
      std::ifstream in(entry.path());
      all += std::string((std::istreambuf_iterator<char>(in)), {});
    }
  EXPECT_NE(all.find(server.url() + "/acme/tool/blob/" + commit + "/tool.py#L3-L5"), std::string::npos)
      << all.substr(0, 2000);
}

// ---- The model writer against a local OpenAI-compatible server ----

namespace {

struct ModelFixture {
  docs::test::TempDir root;
  Analysis analysis;
  PageDraft page;
  WriterContext context;
  ModelFixture() {
    fs::create_directories(root.path() + "/shop");
    std::ofstream(root.path() + "/shop/api.py")
        << "\"\"\"HTTP handlers.\"\"\"\nfrom .models import Product\n\ndef list_products():\n"
           "    \"\"\"Every product.\"\"\"\n    return [Product()]\n";
    FileAnalysis file;
    file.path = "shop/api.py";
    file.language = "Python";
    file.lines = 6;
    file.symbols = {{"list_products", "function", "", "()", 4, 6, "Every product.", "", "", false}};
    analysis.files = {file};
    page.key = "file:shop/api.py";
    page.title = "api.py";
    page.content = {
        {"type", "doc"},
        {"content",
         {{{"type", "heading"}, {"attrs", {{"level", 1}}}, {"content", {{{"type", "text"}, {"text", "api.py"}}}}},
          {{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "Offline text."}}}}}}}};
    context.language = "en";
    context.sourceRoot = root.path();
    context.sourceUrl = [](const std::string& path, int from, int to) {
      return "https://example.com/blob/c0ffee/" + path + "#L" + std::to_string(from) + "-L" + std::to_string(to);
    };
  }
  docs::support::ModelSettings settings(const docs::test::FakeModel& model) {
    docs::support::ModelSettings s;
    s.url = model.url();
    s.model = "test";
    s.timeout = std::chrono::milliseconds(1000);
    s.retryBase = std::chrono::milliseconds(10);
    return s;
  }
};

std::string modelJson(const std::string& paragraph, const std::string& diagram = "") {
  return nlohmann::json{{"paragraphs", {paragraph}}, {"diagram", diagram}}.dump();
}

}  // namespace

TEST(ModelWriter, AGoodAnswerOpensThePageWithLinkedCitations) {
  ModelFixture f;
  docs::test::FakeModel model;
  model.enqueue(
      docs::test::FakeModel::answer("```json\n" +
                                    modelJson("`list_products` returns every product [shop/api.py#L4-L6].",
                                              "flowchart TD\n  A[\"request\"]\n  B[\"list_products\"]\n  A --> B") +
                                    "\n```"));
  auto result = writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, f.settings(model));
  ASSERT_TRUE(result.used) << result.problem;
  auto md = docs::ydoc::toMarkdown(f.page.content);
  EXPECT_LT(md.find("returns every product"), md.find("Offline text."));
  EXPECT_NE(md.find("(https://example.com/blob/c0ffee/shop/api.py#L4-L6)"), std::string::npos) << md;
  EXPECT_NE(md.find("```mermaid"), std::string::npos) << md;
  // The source reached the model line-numbered, as data in the user message.
  auto request = model.requests().at(0);
  EXPECT_EQ(request["messages"][0]["role"], "system");
  EXPECT_NE(request["messages"][1]["content"].get<std::string>().find("4: def list_products():"), std::string::npos);
}

TEST(ModelWriter, RetriesA429AndFallsBackOnEveryOtherFailure) {
  ModelFixture f;
  docs::test::FakeModel model;
  auto settings = f.settings(model);
  auto good = docs::test::FakeModel::answer(modelJson("It lists products [shop/api.py#L4-L6]."));
  model.enqueue({429, R"({"error":"slow down"})", {}});
  model.enqueue(good);
  EXPECT_TRUE(writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, settings).used);

  auto expectFallback = [&](const std::string& why) {
    ModelFixture fresh;
    auto before = fresh.page.content;
    auto result =
        writeFileOpeningWithModel(fresh.page, fresh.analysis.files[0], fresh.analysis, fresh.context, settings);
    EXPECT_FALSE(result.used) << why;
    EXPECT_NE(result.problem.find(why), std::string::npos) << result.problem;
    EXPECT_EQ(fresh.page.content, before);  // the offline page stays as it was
  };
  for (int i = 0; i < 3; ++i) model.enqueue({500, R"({"error":"boom"})", {}});
  expectFallback("HTTP 500");
  model.enqueue({200, "{\"choices\": [", {}});
  expectFallback("not a chat completion");
  model.enqueue(docs::test::FakeModel::answer("Sure! Here is the page."));
  expectFallback("not the JSON");
  model.enqueue(docs::test::FakeModel::answer(modelJson("It lists products [shop/api.py#L40-L60].")));
  expectFallback("lines that do not exist");
  model.enqueue(docs::test::FakeModel::answer(modelJson("See [shop/ghost.py#L1-L2].")));
  expectFallback("file that does not exist");
  model.enqueue(docs::test::FakeModel::answer(modelJson("It calls `delete_everything` [shop/api.py#L4-L6].")));
  expectFallback("identifier the code does not have");
  for (int i = 0; i < 3; ++i) model.enqueue({200, good.body, std::chrono::milliseconds(1500)});
  expectFallback("model request failed");
}

TEST(ModelWriter, ABrokenDiagramIsShownAsCodeWithANote) {
  ModelFixture f;
  docs::test::FakeModel model;
  model.enqueue(docs::test::FakeModel::answer(
      modelJson("It lists products [shop/api.py#L4-L6].", "flowchart TD\n  A[unclosed --> ((B")));
  auto result = writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, f.settings(model));
  ASSERT_TRUE(result.used) << result.problem;
  auto md = docs::ydoc::toMarkdown(f.page.content);
  EXPECT_EQ(md.find("```mermaid"), std::string::npos) << md;
  EXPECT_NE(md.find("did not pass the diagram check"), std::string::npos) << md;
  EXPECT_NE(md.find("```text"), std::string::npos) << md;
}

TEST(Analysis, AnIncrementalRunAnalysesOnlyTheChangedFiles) {
  docs::test::TempDir root;
  std::ofstream(root.path() + "/a.py") << "def alpha():\n    return 1\n";
  std::ofstream(root.path() + "/b.py") << "from a import alpha\n\ndef beta():\n    return alpha()\n";
  auto inventory = takeInventory(root.path(), InventoryLimits{});
  auto first = analyze(root.path(), inventory, AnalysisOptions{});
  ASSERT_NE(first.find("a.py"), nullptr);
  // Mark a.py's entry so a re-analysis would be visible, then change b.py on disk.
  Analysis previous = first;
  for (auto& file : previous.files)
    if (file.path == "a.py")
      file.symbols.push_back({"kept_from_last_run", "function", "", "()", 1, 2, "", "", "", false});
  std::ofstream(root.path() + "/b.py") << "from a import alpha\n\ndef gamma():\n    return alpha()\n";
  std::set<std::string> changed = {"b.py"};
  AnalysisOptions options;
  options.previous = &previous;
  options.changed = &changed;
  auto second = analyze(root.path(), takeInventory(root.path(), InventoryLimits{}), options);
  auto names = [&](const char* path) {
    std::set<std::string> out;
    for (const auto& symbol : second.find(path)->symbols) out.insert(symbol.name);
    return out;
  };
  EXPECT_TRUE(names("a.py").count("kept_from_last_run"));  // not parsed again
  EXPECT_TRUE(names("b.py").count("gamma"));
  EXPECT_FALSE(names("b.py").count("beta"));
  // Imports are resolved across the tree again.
  EXPECT_EQ(second.find("b.py")->dependsOn, std::vector<std::string>{"a.py"});
  EXPECT_EQ(second.find("a.py")->usedBy, std::vector<std::string>{"b.py"});
}

TEST(Analysis, TheTextFormRoundTripsAndTheCacheFollowsTheFile) {
  docs::test::TempDir root;
  std::ofstream(root.path() + "/a.py")
      << "\"\"\"Quotes \\\" and \u00e9 survive.\"\"\"\ndef alpha(x):\n    \"\"\"Doc.\"\"\"\n    return x\n";
  std::ofstream(root.path() + "/b.py") << "from a import alpha\n";
  auto analysis = analyze(root.path(), takeInventory(root.path(), InventoryLimits{}), AnalysisOptions{});
  analysis.builds.push_back({"setup.py", "python", "demo", "a \"demo\"", {"fact one"}});
  std::string text = analysis.toJsonText();
  auto parsed = nlohmann::json::parse(text);  // valid JSON
  auto back = Analysis::fromJson(parsed);
  EXPECT_EQ(back.toJsonText(), text);
  ASSERT_NE(back.find("a.py"), nullptr);
  EXPECT_EQ(back.find("a.py")->summary, analysis.find("a.py")->summary);
  EXPECT_EQ(back.find("a.py")->symbols.at(0).doc, "Doc.");
  EXPECT_EQ(back.find("b.py")->dependsOn, std::vector<std::string>{"a.py"});

  AnalysisCache cache;
  fs::path file = root.path() + "/analysis.json";
  EXPECT_EQ(cache.read(file), nullptr);  // no file yet
  std::ofstream(file) << text;
  auto remembered = std::make_shared<const Analysis>(analysis);
  cache.remember(file, remembered);
  EXPECT_EQ(cache.read(file), remembered);  // the same object: nothing parsed
  // Another writer replaced the file: it is parsed again, not served stale.
  auto other = analysis;
  other.name = "someone-else";
  std::ofstream(file, std::ios::trunc) << other.toJsonText();
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(1));
  auto reread = cache.read(file);
  ASSERT_NE(reread, nullptr);
  EXPECT_NE(reread, remembered);
  EXPECT_EQ(reread->name, "someone-else");
  std::ofstream(file, std::ios::trunc) << "{\"files\": [{\"no path\": 1}]";
  EXPECT_EQ(cache.read(file), nullptr);  // damaged: the caller analyses from scratch
}

TEST(GitSource, HugeFilesDeepTreesAndSubmodulesStayOutOfTheDocumentation) {
  docs::test::GitHttpServer server;
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "d" + std::to_string(i) + "/";
  server.createRepository(
      "acme", "odd",
      {{"small.py", "def small():\n    return 1\n"},
       {"huge.py", std::string(3 << 20, '#')},
       {deep + "deep.py", "def deep():\n    return 2\n"},
       {".gitmodules", "[submodule \"vendor/lib\"]\n\tpath = vendor/lib\n\turl = https://example.org/evil.git\n"}});
  docs::test::TempDir work;
  // A real submodule: a gitlink entry (mode 160000) naming a commit of another repository,
  // next to the .gitmodules that points at it.
  std::string editor = work.path() + "/editor";
  std::string gitlink = "0123456789abcdef0123456789abcdef01234567";
  std::string script =
      "set -e; git clone -q '" + server.root() + "/acme/odd' '" + editor + "'; cd '" + editor +
      "'; git update-index --add --cacheinfo 160000," + gitlink +
      ",vendor/lib;"
      " git -c user.name=t -c user.email=t@example.com commit -q -m submodule; git push -q origin main";
  ASSERT_EQ(std::system(("sh -c \"" + script + "\" >/dev/null 2>&1").c_str()), 0);
  auto cloned =
      docs_generation::cloneRepository(pinned(server.url() + "/acme/odd"), work.path() + "/clone", std::nullopt, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  // The commit holds the gitlink, so "not fetched" below is a real check.
  std::string entry = "git -C '" + work.path() + "/clone' ls-files -s vendor/lib > '" + work.path() + "/ls.txt'";
  ASSERT_EQ(std::system(entry.c_str()), 0);
  std::ifstream lsFiles(work.path() + "/ls.txt");
  std::string line((std::istreambuf_iterator<char>(lsFiles)), {});
  EXPECT_EQ(line.rfind("160000 " + gitlink, 0), 0u) << line;
  // Submodules are not fetched: at most the empty folder git leaves for one.
  EXPECT_TRUE(!fs::exists(work.path() + "/clone/vendor/lib") || fs::is_empty(work.path() + "/clone/vendor/lib"));
  {
    auto analysis =
        analyze(work.path() + "/clone", takeInventory(work.path() + "/clone", InventoryLimits{}), AnalysisOptions{});
    auto drafts = planPages(analysis, planTopics(analysis, PlanOptions{}), "en");
    std::set<std::string> keys;
    for (const auto& draft : drafts) keys.insert(draft.key);
    EXPECT_TRUE(keys.count("overview"));
    EXPECT_TRUE(keys.count("file:small.py"));
    for (const auto& key : keys) EXPECT_EQ(key.find("vendor/lib"), std::string::npos) << key;
  }
  auto inventory = takeInventory(work.path() + "/clone", InventoryLimits{});
  std::set<std::string> listed;
  for (const auto& file : inventory.files) listed.insert(file.path);
  EXPECT_TRUE(listed.count("small.py"));
  EXPECT_FALSE(listed.count("huge.py"));
  EXPECT_FALSE(listed.count(deep + "deep.py"));
  std::string skipped;
  for (const auto& reason : inventory.skipped) skipped += reason + "\n";
  EXPECT_NE(skipped.find("huge.py"), std::string::npos) << skipped;
}

// ---- Cancelling, redirects, renamed keys, the model's budget per request ----

TEST_F(Unpack, AnUnpackStopsBetweenEntriesWhenCancelled) {
  std::vector<ZipEntry> entries;
  for (int i = 0; i < 50; ++i) entries.push_back({"src/f" + std::to_string(i) + ".py", "x = 1\n"});
  int asked = 0;
  auto out = target();
  auto result = unpackZip(zip(entries), out, {}, [&] { return ++asked > 10; });
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.error.find("cancelled"), std::string::npos) << result.error;
  EXPECT_EQ(asked, 11);  // asked once per entry, and no further once it said yes
  EXPECT_FALSE(fs::exists(out));
  expectNothingOutside();
}

TEST(GitSource, ACancelledCloneStopsAndLeavesNothing) {
  docs::test::GitHttpServer server;
  server.createRepository("acme", "shop", {{"a.py", "A = 1\n"}, {"b.py", "B = 2\n"}});
  docs::test::TempDir work;
  int asked = 0;
  auto cloned = cloneRepository(pinned(server.url() + "/acme/shop"), work.path() + "/c", std::nullopt, {},
                                [&] { return ++asked > 0; });
  EXPECT_FALSE(cloned.ok);
  EXPECT_GT(asked, 0);
  EXPECT_EQ(cloned.error, "cancelled");
  EXPECT_FALSE(fs::exists(work.path() + "/c"));
}

// A server that takes the connection and never answers: the clone still stops when
// cancelled and at its deadline (the connection asks while it waits).
TEST(GitSource, ASilentServerCannotHoldACloneOrAHeadLook) {
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 8), 0);  // the kernel completes connections; nothing reads or writes
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/acme/silent";
  docs::test::TempDir work;
  int asked = 0;
  auto cancelled = cloneRepository(pinned(url), work.path() + "/a", std::nullopt, {}, [&] { return ++asked >= 3; });
  EXPECT_FALSE(cancelled.ok);
  EXPECT_EQ(cancelled.error, "cancelled");
  EXPECT_EQ(asked, 3);
  EXPECT_FALSE(fs::exists(work.path() + "/a"));
  GitLimits noTime;
  noTime.maxDuration = std::chrono::seconds(0);
  auto late = cloneRepository(pinned(url), work.path() + "/b", std::nullopt, noTime);
  EXPECT_FALSE(late.ok);
  EXPECT_NE(late.error.find("longer than this server allows"), std::string::npos) << late.error;
  EXPECT_EQ(remoteHead(pinned(url), std::nullopt, noTime), std::nullopt);
  ::close(listener);
}

TEST(GitSource, RemoteHeadAndFetchFollowNoRedirect) {
  docs::test::GitHttpServer server("s3cret-installation-token");
  auto first = server.createRepository("acme", "private", {{"a.py", "A = 1\n"}});
  std::optional<GitCredentials> token = GitCredentials{"x-access-token", "s3cret-installation-token"};
  EXPECT_EQ(remoteHead(pinned(server.url() + "/acme/private"), token, {}), first);
  // /redirect/ answers 302 to the same repository on "localhost": followed, it would answer.
  EXPECT_EQ(remoteHead(pinned(server.url() + "/redirect/acme/private"), token, {}), std::nullopt);
  docs::test::TempDir work;
  auto cloned = cloneRepository(pinned(server.url() + "/acme/private"), work.path() + "/c", token, {});
  ASSERT_TRUE(cloned.ok) << cloned.error;
  server.commit("acme", "private", {{"a.py", "A = 2\n"}});
  auto fetched = fetchLatest(work.path() + "/c", pinned(server.url() + "/redirect/acme/private"), token, {});
  EXPECT_FALSE(fetched.ok);
  EXPECT_EQ(fetched.error.find("s3cret"), std::string::npos) << fetched.error;
  EXPECT_EQ(fetched.commit, "");
  // The real address still works: the refusal was the redirect's.
  EXPECT_TRUE(fetchLatest(work.path() + "/c", pinned(server.url() + "/acme/private"), token, {}).ok);
}

// ---- Git bombs: the checkout is measured from the tree before anything is written ----

namespace {

// A bare repository holding one bomb commit on main, for file:// clones.
std::string bombRepository(const std::string& root, const std::string& name, const docs::test::GitBomb& bomb) {
  std::string bare = root + "/" + name + ".git";
  auto [status, output] = docs::test::runCommand({"git", "init", "-q", "--bare", "--initial-branch=main", bare});
  EXPECT_EQ(status, 0) << output;
  docs::test::commitGitBomb(bare, bomb);
  return "file://" + bare;
}

double secondsSince(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

TEST(GitSource, AFolderRepeatedOnEveryLevelIsRefusedBeforeAnythingIsCheckedOut) {
  docs::test::TempDir work;
  // 10 wide, 4 levels: 100,000 files from about 2 KB of objects.
  auto url = bombRepository(work.path(), "bomb", {10, 4, 0});
  auto started = std::chrono::steady_clock::now();
  auto cloned = cloneRepository(pinned(url), work.path() + "/clone", std::nullopt, GitLimits{});
  double seconds = secondsSince(started);
  // Without the limit the 10^10 paths below would fill the disk: stop here.
  ASSERT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("more than 40000 files and folders"), std::string::npos) << cloned.error;
  EXPECT_NE(cloned.error.find("generation.max_files"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/clone"));
  EXPECT_LT(seconds, 5.0);
  std::cout << "[ measure  ] 100,000-file bomb refused in " << seconds << " s\n";

  // 10 wide, 9 levels: 10^10 paths. The walk stops at the limit, so this is no slower.
  auto deeper = bombRepository(work.path(), "deeper", {10, 9, 0});
  started = std::chrono::steady_clock::now();
  cloned = cloneRepository(pinned(deeper), work.path() + "/clone", std::nullopt, GitLimits{});
  seconds = secondsSince(started);
  EXPECT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("more than 40000 files and folders"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/clone"));
  EXPECT_LT(seconds, 5.0);
  std::cout << "[ measure  ] 10^10-path bomb refused in " << seconds << " s\n";

  // The count is exact: 1,000 files in 110 folders fit 1,110 entries and not 1,109.
  auto small = bombRepository(work.path(), "small", {10, 2, 0});
  GitLimits limits;
  limits.maxEntries = 1110;
  cloned = cloneRepository(pinned(small), work.path() + "/fits", std::nullopt, limits);
  ASSERT_TRUE(cloned.ok) << cloned.error;
  EXPECT_TRUE(fs::exists(work.path() + "/fits/d9/d9/f9"));
  limits.maxEntries = 1109;
  cloned = cloneRepository(pinned(small), work.path() + "/tight", std::nullopt, limits);
  EXPECT_NE(cloned.error.find("more than 1109 files and folders"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/tight"));
}

TEST(GitSource, OneLargeBlobNamedManyTimesIsRefusedByTheUnpackedSize) {
  docs::test::TempDir work;
  // One MiB of zeros (about 1 KB packed) under 20 names: 20 MiB checked out.
  auto url = bombRepository(work.path(), "blobs", {20, 0, 1u << 20});
  GitLimits limits;
  limits.maxUnpackedBytes = 8u << 20;
  auto cloned = cloneRepository(pinned(url), work.path() + "/clone", std::nullopt, limits);
  EXPECT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("more than 8 MB (generation.max_unpacked_mb)"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/clone"));
  limits.maxUnpackedBytes = 20u << 20;  // exactly what it unpacks to
  cloned = cloneRepository(pinned(url), work.path() + "/fits", std::nullopt, limits);
  ASSERT_TRUE(cloned.ok) << cloned.error;
  EXPECT_EQ(fs::file_size(work.path() + "/fits/f19"), 1u << 20);
}

TEST(GitSource, FoldersNestedTooDeepAndPathsTooLongAreRefused) {
  docs::test::TempDir work;
  // One file under 101 nested folders (d0/d0/.../f0).
  auto deep = bombRepository(work.path(), "deep", {1, 101, 0});
  auto cloned = cloneRepository(pinned(deep), work.path() + "/a", std::nullopt, GitLimits{});
  EXPECT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("deeper than 100 levels"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/a"));
  // 100 levels are allowed.
  auto fine = bombRepository(work.path(), "fine", {1, 100, 0});
  EXPECT_TRUE(cloneRepository(pinned(fine), work.path() + "/b", std::nullopt, GitLimits{}).ok);
  // "d0/d0/d0/d0/d0/d0/d0/d0/f0" is 26 bytes.
  auto eight = bombRepository(work.path(), "eight", {1, 8, 0});
  GitLimits limits;
  limits.maxPathBytes = 25;
  cloned = cloneRepository(pinned(eight), work.path() + "/c", std::nullopt, limits);
  EXPECT_FALSE(cloned.ok);
  EXPECT_NE(cloned.error.find("a path longer than 25 bytes"), std::string::npos) << cloned.error;
  EXPECT_FALSE(fs::exists(work.path() + "/c"));
  limits.maxPathBytes = 26;
  EXPECT_TRUE(cloneRepository(pinned(eight), work.path() + "/d", std::nullopt, limits).ok);
}

TEST(GitSource, ASyncToABombLeavesTheCheckoutAtItsCommitAndALaterCommitStillArrives) {
  docs::test::GitHttpServer server;
  auto first = server.createRepository("acme", "grow", {{"a.py", "A = 1\n"}});
  docs::test::TempDir work;
  std::string checkout = work.path() + "/clone";
  std::string url = server.url() + "/acme/grow";
  ASSERT_TRUE(cloneRepository(pinned(url), checkout, std::nullopt, {}).ok);
  docs::test::commitGitBomb(server.root() + "/acme/grow", {10, 4, 0});
  auto started = std::chrono::steady_clock::now();
  auto fetched = fetchLatest(checkout, pinned(url), std::nullopt, {});
  double seconds = secondsSince(started);
  EXPECT_FALSE(fetched.ok);
  EXPECT_NE(fetched.error.find("more than 40000 files and folders"), std::string::npos) << fetched.error;
  EXPECT_LT(seconds, 5.0);
  std::cout << "[ measure  ] sync to a 100,000-file bomb refused in " << seconds << " s\n";
  // Nothing of the bomb was written; the branch and the files are the first commit's.
  EXPECT_TRUE(fs::exists(checkout + "/a.py"));
  EXPECT_FALSE(fs::exists(checkout + "/d0"));
  auto head = docs::test::runCommand({"git", "-C", checkout, "rev-parse", "HEAD"});
  EXPECT_EQ(head.second.substr(0, 40), first);
  // A small tree on top of the bomb checks out as usual.
  auto small = docs::test::commitGitBomb(server.root() + "/acme/grow", {2, 1, 0});
  fetched = fetchLatest(checkout, pinned(url), std::nullopt, {});
  ASSERT_TRUE(fetched.ok) << fetched.error;
  EXPECT_EQ(fetched.commit, small);
  EXPECT_TRUE(fs::exists(checkout + "/d1/f1"));
  EXPECT_FALSE(fs::exists(checkout + "/a.py"));
}

namespace {

// Just enough of a Config for the renamed keys: values as given, undeclared keys throw.
class MapConfig final : public docs::Config {
 public:
  explicit MapConfig(std::map<std::string, std::string, std::less<>> values) : values_(std::move(values)) {}
  bool has(std::string_view key) const override { return values_.find(key) != values_.end(); }
  std::string getString(std::string_view key) const override {
    auto found = values_.find(key);
    if (found == values_.end()) throw std::invalid_argument(std::string(key));
    return found->second;
  }
  std::int64_t getInt(std::string_view key) const override { return std::stoll(getString(key)); }
  bool getBool(std::string_view key) const override { return getString(key) == "true"; }
  std::vector<std::string> getList(std::string_view) const override { return {}; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

std::map<std::string, std::string, std::less<>> modelDefaults() {
  return {
      {"llm.base_url", ""},      {"llm.api_key", ""},      {"llm.model", "gpt-4o-mini"},     {"llm.timeout_s", "60"},
      {"llm.max_attempts", "3"}, {"llm.concurrency", "4"}, {"llm.max_input_tokens", "6000"}, {"model.url", ""},
      {"model.api_key", ""},     {"model.name", ""},       {"model.timeout_ms", ""}};
}

}  // namespace

TEST(ModelKeys, TheIssuesNamesAndTheOldNamesAsDeprecatedAliases) {
  auto values = modelDefaults();
  values["llm.base_url"] = "http://model.test/v1/";
  values["llm.model"] = "writer";
  values["llm.max_attempts"] = "5";
  values["llm.concurrency"] = "2";
  values["llm.timeout_s"] = "7";
  values["llm.max_input_tokens"] = "900";
  std::vector<std::string> deprecated;
  auto settings = docs::support::modelSettingsFrom(MapConfig(values), &deprecated);
  EXPECT_EQ(settings.url, "http://model.test/v1");
  EXPECT_EQ(settings.model, "writer");
  EXPECT_EQ(settings.maxAttempts, 5);
  EXPECT_EQ(settings.concurrency, 2);
  EXPECT_EQ(settings.timeout, std::chrono::seconds(7));
  EXPECT_EQ(settings.maxInputTokens, 900u);
  EXPECT_TRUE(deprecated.empty());

  auto old = modelDefaults();
  old["model.url"] = "http://old.test/v1";
  old["model.name"] = "old-writer";
  old["model.api_key"] = "k";
  old["model.timeout_ms"] = "2500";
  settings = docs::support::modelSettingsFrom(MapConfig(old), &deprecated);
  EXPECT_EQ(settings.url, "http://old.test/v1");
  EXPECT_EQ(settings.model, "old-writer");
  EXPECT_EQ(settings.apiKey, "k");
  EXPECT_EQ(settings.timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(deprecated.size(), 4u);

  // Both set: the new name wins.
  old["llm.model"] = "new-writer";
  EXPECT_EQ(docs::support::modelSettingsFrom(MapConfig(old)).model, "new-writer");
}

TEST(ModelWriter, ALongFileIsSentInPartsWithinTheBudgetAndTheAnswersAreJoined) {
  ModelFixture f;
  std::string source;
  for (int i = 1; i <= 150; ++i)
    source += "def handler_" + std::to_string(i) + "():  # answers request kind " + std::to_string(i) + "\n";
  std::ofstream(f.root.path() + "/shop/api.py", std::ios::trunc) << source;
  f.analysis.files[0].lines = 150;
  f.analysis.files[0].symbols.clear();
  for (int i = 1; i <= 150; ++i)
    f.analysis.files[0].symbols.push_back(
        {"handler_" + std::to_string(i), "function", "", "()", i, i, "", "", "", false});
  docs::test::FakeModel model;
  model.setDefault(docs::test::FakeModel::answer(modelJson("`handler_1` starts the file [shop/api.py#L1-L2].")));
  auto settings = f.settings(model);
  settings.maxInputTokens = 1200;  // about 4,800 characters a request
  auto result = writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, settings);
  ASSERT_TRUE(result.used) << result.problem;
  auto requests = model.requests();
  ASSERT_GT(requests.size(), 1u);
  int expectedFirst = 1;
  for (const auto& request : requests) {
    std::size_t characters = 0;
    for (const auto& message : request["messages"]) characters += message["content"].get<std::string>().size();
    EXPECT_LE(docs::support::estimateTokens(characters), settings.maxInputTokens) << characters;
    auto data = nlohmann::json::parse(request["messages"][1]["content"].get<std::string>());
    ASSERT_TRUE(data.contains("part")) << data.dump().substr(0, 300);
    EXPECT_EQ(data["part"]["first_line"], expectedFirst);  // contiguous, no line twice or missing
    expectedFirst = data["part"]["last_line"].get<int>() + 1;
    auto text = data["source"].get<std::string>();
    EXPECT_EQ(text.rfind(std::to_string(data["part"]["first_line"].get<int>()) + ": def handler_", 0), 0u)
        << text.substr(0, 80);
  }
  EXPECT_EQ(expectedFirst, 151);
  // One paragraph per part, joined on the page.
  auto md = docs::ydoc::toMarkdown(f.page.content);
  std::size_t count = 0;
  for (auto at = md.find("starts the file"); at != std::string::npos; at = md.find("starts the file", at + 1)) ++count;
  EXPECT_EQ(count, std::min<std::size_t>(requests.size(), 12));

  // A part whose answer fails its check leaves the offline page as it was.
  ModelFixture fresh;
  std::ofstream(fresh.root.path() + "/shop/api.py", std::ios::trunc) << source;
  fresh.analysis = f.analysis;
  auto before = fresh.page.content;
  docs::test::FakeModel picky;
  picky.enqueue(docs::test::FakeModel::answer(modelJson("`handler_1` starts the file [shop/api.py#L1-L2].")));
  picky.setDefault(docs::test::FakeModel::answer(modelJson("It goes on [shop/api.py#L140-L400].")));
  auto pickySettings = fresh.settings(picky);
  pickySettings.maxInputTokens = 1200;
  auto refused =
      writeFileOpeningWithModel(fresh.page, fresh.analysis.files[0], fresh.analysis, fresh.context, pickySettings);
  EXPECT_FALSE(refused.used);
  EXPECT_NE(refused.problem.find("lines that do not exist"), std::string::npos) << refused.problem;
  EXPECT_EQ(fresh.page.content, before);
}

TEST(ModelWriter, MaxAttemptsBoundsTheRetries) {
  ModelFixture f;
  docs::test::FakeModel model;
  model.setDefault({503, R"({"error":"busy"})", {}});
  auto settings = f.settings(model);
  settings.maxAttempts = 2;
  EXPECT_FALSE(writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, settings).used);
  EXPECT_EQ(model.requests().size(), 2u);
}

TEST(Analysis, AMissingCtagsFailsTheAnalysisInsteadOfLeavingItWithoutSymbols) {
  docs::test::TempDir root;
  std::ofstream(root.path() + "/a.sh") << "alpha() {\n  echo 1\n}\n";  // shell is read by ctags
  AnalysisOptions options;
  options.ctags = root.path() + "/no-such-ctags";
  auto inventory = takeInventory(root.path(), InventoryLimits{});
  try {
    analyze(root.path(), inventory, options);
    ADD_FAILURE() << "a missing ctags went unnoticed";
  } catch (const CtagsFailed& failed) {
    EXPECT_NE(std::string(failed.what()).find("could not be run"), std::string::npos) << failed.what();
  }
  // Nor does one whose languages all have a parser here.
  docs::test::TempDir parsedOnly;
  std::ofstream(parsedOnly.path() + "/a.py") << "def alpha():\n    return 1\n";
  std::ofstream(parsedOnly.path() + "/b.rs") << "pub fn beta() {}\n";
  auto parsed = analyze(parsedOnly.path(), takeInventory(parsedOnly.path(), InventoryLimits{}), options);
  ASSERT_EQ(parsed.files.size(), 2u);
  EXPECT_EQ(parsed.files[0].symbols.size(), 1u);
  EXPECT_EQ(parsed.files[1].symbols.size(), 1u);
  // A project with no code needs no ctags at all.
  docs::test::TempDir docsOnly;
  std::ofstream(docsOnly.path() + "/README.md") << "# Notes\n";
  EXPECT_NO_THROW(analyze(docsOnly.path(), takeInventory(docsOnly.path(), InventoryLimits{}), options));
}

// ctags runs in the repository: its .ctags.d/ would let the repository forge symbols
// (here a regex that turns a variable into a function "forged_x").
TEST(Analysis, TheRepositorysOwnCtagsOptionsAreNeverRead) {
  docs::test::TempDir dir;
  fs::create_directories(fs::path(dir.path()) / ".ctags.d");
  std::ofstream(fs::path(dir.path()) / ".ctags.d" / "forged.ctags")
      << "--regex-Python=/^secret_([a-z]+)/forged_\\1/f/\n";
  std::ofstream(fs::path(dir.path()) / "tool.py")
      << "\"\"\"A tool.\"\"\"\nsecret_x = 1\n\ndef real():\n    \"\"\"Real.\"\"\"\n    pass\n";
  auto analysis = analyze(dir.path(), takeInventory(dir.path(), InventoryLimits{}), AnalysisOptions{});
  const auto* tool = analysis.find("tool.py");
  ASSERT_NE(tool, nullptr);
  std::vector<std::string> names;
  for (const auto& symbol : tool->symbols) names.push_back(symbol.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "real"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "forged_x"), names.end());
}

// Every path is matched against every ignore rule: a repository cannot make that cost
// unbounded with a huge .gitignore.
TEST(Inventory, IgnoreRulesAreCappedAndTheCapIsReported) {
  docs::test::TempDir dir;
  std::string rules;
  for (std::size_t i = 0; i < IgnoreRules::kMaxRules; ++i) rules += "never-" + std::to_string(i) + "\n";
  rules += "*.py\n";                                                    // rule kMaxRules + 1: not applied
  rules += std::string(IgnoreRules::kMaxPatternBytes + 1, '*') + "\n";  // too long as well
  std::ofstream(fs::path(dir.path()) / ".gitignore") << rules;
  std::ofstream(fs::path(dir.path()) / "kept.py") << "x = 1\n";
  auto inventory = takeInventory(dir.path(), InventoryLimits{});
  ASSERT_EQ(inventory.files.size(), 2u);  // .gitignore itself and kept.py
  EXPECT_EQ(inventory.files[1].path, "kept.py");
  bool reported = false;
  for (const auto& note : inventory.skipped)
    reported = reported || note.find("2 rules over the limit") != std::string::npos;
  EXPECT_TRUE(reported);
}

// A walk over a huge tree stops when its checkpoint says so (a deleted project).
TEST(Inventory, TheWalkStopsAtItsCheckpoint) {
  docs::test::TempDir dir;
  for (int i = 0; i < 2000; ++i) std::ofstream(fs::path(dir.path()) / ("f" + std::to_string(i) + ".txt")) << "x\n";
  InventoryLimits limits;
  int calls = 0;
  limits.checkpoint = [&] {
    if (++calls == 3) throw std::runtime_error("the project was deleted");
  };
  EXPECT_THROW(takeInventory(dir.path(), limits), std::runtime_error);
  EXPECT_EQ(calls, 3);
}

// With the plan, the model is told where the file stands (role, topic, the concepts it
// defines or uses, the guides on its topic) and asked to tie the file to them; tests,
// tooling and generated code get no model opening.
TEST(ModelWriter, ThePromptCarriesTheFilesPlaceInThePlan) {
  ModelFixture f;
  docs::test::FakeModel model;
  model.enqueue(docs::test::FakeModel::answer(modelJson("`list_products` returns every product [shop/api.py#L4-L6].")));
  Plan plan;
  Topic topic;
  topic.key = "topic:shop";
  topic.title = "Shop";
  topic.files = {"shop/api.py"};
  plan.topics.push_back(topic);
  plan.topicOfFile["shop/api.py"] = "topic:shop";
  Concept product;
  product.name = "Product";
  product.file = "shop/models.py";
  product.usedIn = {"shop/api.py"};
  plan.concepts.push_back(product);
  Guide guide;
  guide.path = "docs/selling.md";
  guide.key = "guide:docs/selling.md";
  guide.title = "Selling things";
  guide.topics = {"topic:shop"};
  plan.guides.push_back(guide);
  auto result = writeFileOpeningWithModel(f.page, f.analysis.files[0], f.analysis, f.context, f.settings(model), &plan);
  ASSERT_TRUE(result.used) << result.problem;
  auto request = model.requests().at(0);
  auto data = nlohmann::json::parse(request["messages"][1]["content"].get<std::string>());
  EXPECT_EQ(data["place"]["role"], "library");
  EXPECT_EQ(data["place"]["topic"], "Shop");
  EXPECT_EQ(data["place"]["uses_concepts"], nlohmann::json::array({"Product"}));
  EXPECT_EQ(data["place"]["guides"], nlohmann::json::array({"Selling things"}));
  EXPECT_NE(request["messages"][0]["content"].get<std::string>().find("concepts"), std::string::npos);

  FileAnalysis test;
  test.path = "tests/test_api.py";
  test.role = "test";
  FileAnalysis example;
  example.role = "example";
  EXPECT_FALSE(modelWritesOpening(test));
  EXPECT_TRUE(modelWritesOpening(example));
  EXPECT_TRUE(modelWritesOpening(f.analysis.files[0]));
}

// The model client keeps one connection per thread across calls and waits as long as a
// rate-limited server's Retry-After says (not its own shorter backoff).
TEST(ModelClient, KeepsItsConnectionAndHonoursRetryAfter) {
  docs::test::FakeModel model;
  docs::support::ModelSettings settings;
  settings.url = model.url();
  settings.model = "test";
  settings.retryBase = std::chrono::milliseconds(10);
  settings.maxAttempts = 3;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(docs::support::complete(settings, {{"user", "hello"}}).ok);
  EXPECT_EQ(model.connections(), 1);

  model.enqueue({429, R"({"error":"slow down"})", {}, {{"Retry-After", "1"}}});
  auto reply = docs::support::complete(settings, {{"user", "again"}});
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.attempts, 2);
  auto arrivals = model.arrivals();
  ASSERT_GE(arrivals.size(), 5u);
  // At least the second asked for (a lower bound: the backoff alone would be 10 ms).
  EXPECT_GE(arrivals[4] - arrivals[3], std::chrono::milliseconds(1000));
}

// Go imports are package paths: the standard library's `encoding/json` is never the tree's
// encoding.go; a path under go.mod's module is that package's folder.
TEST(Analysis, GoImportsResolveByTheModulePath) {
  docs::test::TempDir root;
  auto write = [&](const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root.path() + "/" + path).parent_path());
    std::ofstream(root.path() + "/" + path) << text;
  };
  write("go.mod", "module example.com/lib\n\ngo 1.21\n");
  write("encoding.go", "package lib\n\nfunc Encode() {}\n");
  write("json.go", "package lib\n\nfunc J() {}\n");
  write("lib.go", "package lib\n\n// Package lib does things.\n");
  write("use.go",
        "package lib\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"github.com/other/x\"\n)\n\n"
        "func Use() { json.Marshal(1); fmt.Println(); x.Y() }\n");
  write("sub/sub.go", "package sub\n\nimport \"example.com/lib\"\n\nfunc S() { lib.Encode() }\n");
  auto analysis = analyze(root.path(), takeInventory(root.path(), InventoryLimits{}), AnalysisOptions{});
  EXPECT_TRUE(analysis.find("use.go")->dependsOn.empty());
  EXPECT_EQ(analysis.find("sub/sub.go")->dependsOn, std::vector<std::string>{"lib.go"});
}
