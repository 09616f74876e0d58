// `docsd generate` run as a child process, the way people run it: on a folder and on a
// ZIP (Markdown tree, index.json, links to source lines relative to the source root),
// with --report (report.json), in a pipe (one line per stage) and on a terminal (a live
// progress line), with settings from the config file and the environment, and with an
// OpenAI-compatible model (the fake server) writing file pages' openings.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_model.hpp"
#include "git_bomb.hpp"
#include "git_server.hpp"
#include "test_support.hpp"
#include "zip_builder.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> kShop = {
    {"README.md", "# Shop\n\nA tiny shop.\n"},
    {"shop/__init__.py", "\"\"\"The shop package.\"\"\"\n"},
    {"shop/models.py",
     "\"\"\"What is sold.\"\"\"\n\n\nclass Product:\n    \"\"\"One thing for sale.\"\"\"\n\n    def __init__(self, "
     "name, price):\n"
     "        self.name = name\n        self.price = price\n\n\ndef total(products):\n    \"\"\"The sum of the "
     "prices.\"\"\"\n"
     "    return sum(p.price for p in products)\n"},
    {"shop/api.py",
     "\"\"\"HTTP handlers.\"\"\"\nfrom shop.models import Product, total\n\n\ndef list_products():\n    \"\"\"Every "
     "product.\"\"\"\n"
     "    return [Product(\"tea\", 3)]\n\n\ndef basket_total():\n    \"\"\"What the basket costs.\"\"\"\n"
     "    return total(list_products())\n"},
    {"reports/report.py",
     "\"\"\"Prints a report.\"\"\"\nfrom shop.api import basket_total\n\n\ndef main():\n    \"\"\"Entry.\"\"\"\n"
     "    print(basket_total())\n"},
};

std::string docsd() { return docs::test::buildDir() + "/bin/docsd"; }

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeTree(const fs::path& root, const std::map<std::string, std::string>& files) {
  for (const auto& [path, text] : files) {
    fs::create_directories((root / path).parent_path());
    std::ofstream(root / path) << text;
  }
}

std::vector<std::string> environmentWith(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> entries;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    if (!extra.count(entry.substr(0, entry.find('=')))) entries.push_back(entry);
  }
  for (const auto& [key, value] : extra) entries.push_back(key + "=" + value);
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> list;
  for (auto& s : strings) list.push_back(s.data());
  list.push_back(nullptr);
  return list;
}

struct Run {
  int status = -1;
  std::string out, err;
};

// stdout and stderr each to a file (not a terminal), as in `docsd generate ... | tee`.
Run runPiped(std::vector<std::string> args, const std::map<std::string, std::string>& env = {}) {
  docs::test::TempDir logs;
  std::string outPath = logs.path() + "/out", errPath = logs.path() + "/err";
  args.insert(args.begin(), docsd());
  auto argv = pointers(args);
  auto environment = environmentWith(env);
  auto envp = pointers(environment);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = -1;
  int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  Run run;
  if (spawned != 0) return run;
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = readText(outPath);
  run.err = readText(errPath);
  return run;
}

// Everything on a pseudo-terminal, as a person at a shell sees it.
Run runOnTerminal(std::vector<std::string> args) {
  args.insert(args.begin(), docsd());
  auto argv = pointers(args);
  auto environment = environmentWith({{"TERM", "xterm"}});
  auto envp = pointers(environment);
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  Run run;
  if (pid < 0) return run;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  char buffer[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd ready{master, POLLIN, 0};
    if (::poll(&ready, 1, 1000) <= 0) continue;
    ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child and its terminal are gone
    run.out.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Every node of index.json: key, title, type, path (a file that exists), children.
void walkIndex(const nlohmann::json& list, const fs::path& out, std::map<std::string, std::string>& parentOf,
               const std::string& parent) {
  ASSERT_TRUE(list.is_array());
  for (const auto& node : list) {
    ASSERT_TRUE(node.contains("key") && node.contains("title") && node.contains("type") && node.contains("path"))
        << node.dump();
    EXPECT_TRUE(fs::is_regular_file(out / node["path"].get<std::string>())) << node["path"];
    parentOf[node["key"].get<std::string>()] = parent;
    walkIndex(node["children"], out, parentOf, node["key"].get<std::string>());
  }
}

// The tree, the Markdown and its `path#La-Lb` links, checked against the sources.
void expectShopTree(const fs::path& out) {
  ASSERT_TRUE(fs::is_regular_file(out / "index.md"));
  auto index = nlohmann::json::parse(readText(out / "index.json"));
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]["key"], "overview");
  EXPECT_EQ(index[0]["path"], "index.md");
  std::map<std::string, std::string> parentOf;
  walkIndex(index, out, parentOf, "");
  EXPECT_EQ(parentOf["topic:shop"], "overview");
  EXPECT_EQ(parentOf["topic:reports"], "overview");
  EXPECT_EQ(parentOf["file:shop/api.py"], "topic:shop");
  EXPECT_EQ(parentOf["file:shop/models.py"], "topic:shop");
  EXPECT_EQ(parentOf["file:reports/report.py"], "topic:reports");

  // Links to source lines are relative to the source root and name lines that exist.
  static const std::regex link(R"(\]\(([A-Za-z0-9_./-]+\.py)#L([0-9]+)-L([0-9]+)\))");
  std::set<std::string> linked;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (entry.path().extension() != ".md") continue;
    std::string text = readText(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      std::string path = (*it)[1];
      ASSERT_TRUE(kShop.count(path)) << path << " in " << entry.path();
      auto lines = linesOf(kShop.at(path)).size();
      auto from = std::stoul((*it)[2]), to = std::stoul((*it)[3]);
      EXPECT_TRUE(from >= 1 && from <= to && to <= lines) << it->str();
      linked.insert(path);
    }
  }
  EXPECT_TRUE(linked.count("shop/api.py"));
  EXPECT_TRUE(linked.count("shop/models.py"));
  std::string api = readText(out / "files/shop/api.py.md");
  EXPECT_NE(api.find("list_products"), std::string::npos) << api;
  EXPECT_NE(api.find("Every product."), std::string::npos) << api;
}

}  // namespace

// github.url is declared by auth, projects, github and generation (docs::kGithubUrl): the
// host takes it from each and `docsd help` lists it once, with its one default.
TEST(GenerateCommand, AKeySeveralPluginsDeclareIsListedOnce) {
  auto help = runPiped({"help"});
  ASSERT_EQ(help.status, 0) << help.err;
  const std::string line = "  github.url  (env DOCS_GITHUB_URL, default 'https://github.com'";
  auto first = help.out.find(line);
  ASSERT_NE(first, std::string::npos) << help.out;
  EXPECT_EQ(help.out.find(line, first + 1), std::string::npos) << help.out;
}

// The command is the generation plugin's: `docsd help` lists it with the plugin while the
// plugin would load, and without the plugin it names the plugin and why it is not loaded.
TEST(GenerateCommand, BelongsToTheGenerationPlugin) {
  auto help = runPiped({"help"});
  ASSERT_EQ(help.status, 0) << help.err;
  EXPECT_NE(help.out.find("  generate <path|file.zip|url> --out DIR"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("(plugin generation)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("reads github.url, generation.allowed_hosts"), std::string::npos) << help.out;

  docs::test::TempDir work;
  writeTree(work.path() + "/shop-src", kShop);
  auto disabled = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/out"},
                           {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages"}});
  EXPECT_EQ(disabled.status, 69) << disabled.err;
  EXPECT_NE(disabled.err.find("`docsd generate` is provided by the generation plugin, which is not loaded: disabled "
                              "by plugins.enabled"),
            std::string::npos)
      << disabled.err;
  EXPECT_FALSE(fs::exists(work.path() + "/out"));
  auto withoutHelp = runPiped({"help"}, {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages"}});
  EXPECT_EQ(withoutHelp.out.find("(plugin generation)"), std::string::npos) << withoutHelp.out;

  // Enabled without what it needs: nothing would load, and the reason says so.
  auto broken = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/out"},
                         {{"DOCS_PLUGINS_ENABLED", "generation"}});
  EXPECT_EQ(broken.status, 69) << broken.err;
  EXPECT_NE(broken.err.find("provided by the generation plugin, which is not loaded: docsd would not load its "
                            "plugins: plugin generation needs plugin"),
            std::string::npos)
      << broken.err;

  // With no plugins at all, generate is a command nobody provides.
  docs::test::TempDir empty;
  auto none = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/out"},
                       {{"DOCS_PLUGINS_DIR", empty.path()}});
  EXPECT_EQ(none.status, 64) << none.err;
  EXPECT_NE(none.err.find("unknown command 'generate'"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("no plugins in " + empty.path()), std::string::npos) << none.err;
}

TEST(GenerateCommand, AFolderInAPipeGivesTheTreeAndOneLinePerStage) {
  docs::test::TempDir work;
  writeTree(work.path() + "/shop-src", kShop);
  auto run = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/out"});
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  expectShopTree(work.path() + "/out");
  EXPECT_NE(run.out.find("wrote "), std::string::npos) << run.out;
  EXPECT_FALSE(fs::exists(work.path() + "/out/report.json"));

  // No live line in a pipe: one "[<s>s] <stage>" line per stage, in order.
  EXPECT_EQ(run.err.find('\r'), std::string::npos);
  EXPECT_EQ(run.err.find('\033'), std::string::npos);
  static const std::regex stageLine(R"(^\[[0-9]+s\] (.+)$)");
  std::vector<std::string> stages;
  for (const auto& line : linesOf(run.err)) {
    std::smatch match;
    ASSERT_TRUE(std::regex_match(line, match, stageLine)) << line;
    stages.push_back(match[1]);
  }
  ASSERT_EQ(stages.size(), 4u) << run.err;
  EXPECT_EQ(stages[0], "inventory");
  EXPECT_EQ(stages[1], "analysis (5 files)");
  EXPECT_EQ(stages[2], "planning topics");
  EXPECT_TRUE(std::regex_match(stages[3], std::regex("writing [0-9]+ pages"))) << stages[3];
}

TEST(GenerateCommand, AZipGivesTheSameTreeAndReportFigures) {
  docs::test::TempDir work;
  std::vector<docs::test::ZipEntry> entries;
  for (const auto& [path, text] : kShop) entries.push_back({path, text});
  docs::test::writeZip(work.path() + "/shop.zip", entries);
  // The Chromium check is the mermaid check script's own business; here it cannot run.
  auto run = runPiped({"generate", work.path() + "/shop.zip", "--out", work.path() + "/out", "--report"},
                      {{"DOCS_MERMAID_CHECK", work.path() + "/no-such-script.mjs"}});
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  expectShopTree(work.path() + "/out");
  EXPECT_EQ(linesOf(run.err).at(0).substr(linesOf(run.err)[0].find(' ') + 1), "unpacking");

  auto report = nlohmann::json::parse(readText(work.path() + "/out/report.json"));
  EXPECT_EQ(report["files"], 5);
  EXPECT_GE(report["pages"].get<int>(), 6);
  EXPECT_EQ(report["public_symbols"], 5);  // Product, total, list_products, basket_total, main
  EXPECT_DOUBLE_EQ(report["documented_share"].get<double>(), 1.0);
  EXPECT_GT(report["identifiers_named"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(report["identifiers_existing_share"].get<double>(), 1.0) << report.dump(2);
  EXPECT_DOUBLE_EQ(report["identifiers_in_code_share"].get<double>(), 1.0) << report.dump(2);
  EXPECT_GT(report["source_links"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(report["source_links_resolving_share"].get<double>(), 1.0) << report.dump(2);
  EXPECT_GT(report["diagrams"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(report["diagrams_valid_share"].get<double>(), 1.0);
  EXPECT_TRUE(report["mermaid_in_chromium"].is_string());  // says why it was not checked
  // The figures are printed too.
  EXPECT_NE(run.out.find("\"source_links_resolving_share\""), std::string::npos) << run.out;
}

TEST(GenerateCommand, OnATerminalItShowsALiveProgressLine) {
  docs::test::TempDir work;
  writeTree(work.path() + "/shop-src", kShop);
  auto run = runOnTerminal({"generate", work.path() + "/shop-src", "--out", work.path() + "/out"});
  ASSERT_EQ(run.status, 0) << run.out;
  expectShopTree(work.path() + "/out");
  // The line is redrawn in place: carriage return, erase line, elapsed, stage, done/total.
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(\r\x1b\[K\[[0-9]+s\] inventory)"))) << run.out;
  // Analysis: the symbols of the 4 code files (Python's parser), then every file read.
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(\r\x1b\[K\[[0-9]+s\] analysis \(5 files\): symbols 4/4)")))
      << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(\r\x1b\[K\[[0-9]+s\] analysis \(5 files\): reading 5/5)")))
      << run.out;
  std::smatch pages;
  ASSERT_TRUE(
      std::regex_search(run.out, pages, std::regex(R"(\r\x1b\[K\[[0-9]+s\] writing ([0-9]+) pages ([0-9]+)/([0-9]+))")))
      << run.out;
  EXPECT_EQ(pages[1], pages[3]);
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(writing ([0-9]+) pages \1/\1\r?\n)")))
      << "the last count is the total";
}

TEST(GenerateCommand, SettingsComeFromTheConfigFileAndTheEnvironment) {
  docs::test::TempDir work;
  // The config file narrows the allowed hosts: another public host is refused before any network.
  std::ofstream(work.path() + "/docsd.json") << R"({"generation": {"allowed_hosts": "example.org"}})";
  auto refused = runPiped({"generate", "https://gitlab.com/acme/tool", "--out", work.path() + "/a"},
                          {{"DOCS_CONFIG", work.path() + "/docsd.json"}});
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("not allowed"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(work.path() + "/a"));

  // file:// needs generation.allow_local_sources (here from the environment).
  writeTree(work.path() + "/repo", kShop);
  auto git = docs::test::runCommand({"sh", "-c",
                                     "cd '" + work.path() +
                                         "/repo' && git init -q && git add -A && "
                                         "git -c user.email=t@t -c user.name=t commit -q -m shop"});
  ASSERT_EQ(git.first, 0) << git.second;
  std::string url = "file://" + work.path() + "/repo";
  auto withoutFlag = runPiped({"generate", url, "--out", work.path() + "/b"});
  EXPECT_EQ(withoutFlag.status, 1);
  EXPECT_NE(withoutFlag.err.find("file://"), std::string::npos) << withoutFlag.err;
  auto allowed =
      runPiped({"generate", url, "--out", work.path() + "/c"}, {{"DOCS_GENERATION_ALLOW_LOCAL_SOURCES", "true"}});
  ASSERT_EQ(allowed.status, 0) << allowed.err;
  // The deprecated name still works.
  EXPECT_EQ(runPiped({"generate", url, "--out", work.path() + "/c-old"}, {{"DOCS_GENERATION_ALLOW_FILE_URLS", "true"}})
                .status,
            0);
  EXPECT_EQ(linesOf(allowed.err).at(0).substr(linesOf(allowed.err)[0].find(' ') + 1), "cloning");
  expectShopTree(work.path() + "/c");

  // generation.ctags names the ctags that runs (for the languages without a parser here:
  // a shell script; Python is parsed).
  auto scripted = kShop;
  scripted["tools/deploy.sh"] = "#!/bin/sh\n# Deploys the shop.\ndeploy() {\n  echo deploying\n}\n";
  writeTree(work.path() + "/scripted", scripted);
  std::string wrapper = work.path() + "/my-ctags";
  std::ofstream(wrapper) << "#!/bin/sh\ntouch '" << work.path() << "/ctags-ran'\nexec ctags \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  auto ownCtags = runPiped({"generate", work.path() + "/scripted", "--out", work.path() + "/d"},
                           {{"DOCS_GENERATION_CTAGS", wrapper}});
  ASSERT_EQ(ownCtags.status, 0) << ownCtags.err;
  EXPECT_TRUE(fs::exists(work.path() + "/ctags-ran"));
  EXPECT_TRUE(fs::exists(work.path() + "/d/files/tools/deploy.sh.md"));
  // Without ctags there are no symbols: a clear failure, not thin pages.
  auto noCtags = runPiped({"generate", work.path() + "/scripted", "--out", work.path() + "/e"},
                          {{"DOCS_GENERATION_CTAGS", work.path() + "/no-such-ctags"}});
  EXPECT_EQ(noCtags.status, 1);
  EXPECT_NE(noCtags.err.find("Universal Ctags"), std::string::npos) << noCtags.err;
}

TEST(GenerateCommand, AGitBombIsRefusedBeforeItsCheckoutAndLeavesNothing) {
  docs::test::TempDir work;
  std::string bare = work.path() + "/bomb.git";
  auto init = docs::test::runCommand({"git", "init", "-q", "--bare", "--initial-branch=main", bare});
  ASSERT_EQ(init.first, 0) << init.second;
  docs::test::commitGitBomb(bare, {10, 4, 0});  // 100,000 files
  // The temporary clone goes under TMPDIR: it must be gone afterwards.
  fs::create_directories(work.path() + "/tmp");
  std::map<std::string, std::string> env = {{"DOCS_GENERATION_ALLOW_LOCAL_SOURCES", "true"},
                                            {"TMPDIR", work.path() + "/tmp"}};
  // generation.max_files sets the limit, as on the server: twice 100.
  env["DOCS_GENERATION_MAX_FILES"] = "100";
  auto small = runPiped({"generate", "file://" + bare, "--out", work.path() + "/a"}, env);
  ASSERT_EQ(small.status, 1) << small.err;
  EXPECT_NE(small.err.find("more than 200 files and folders"), std::string::npos) << small.err;
  EXPECT_FALSE(fs::exists(work.path() + "/a"));
  env.erase("DOCS_GENERATION_MAX_FILES");
  auto started = std::chrono::steady_clock::now();
  auto run = runPiped({"generate", "file://" + bare, "--out", work.path() + "/b"}, env);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.err.find("more than 40000 files and folders"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(work.path() + "/b"));
  EXPECT_TRUE(fs::is_empty(work.path() + "/tmp"));
  EXPECT_LT(seconds, 10.0);
  std::cout << "[ measure  ] docsd generate refused the bomb in " << seconds << " s\n";
}

TEST(GenerateCommand, ARepositoryLinksToItsCommitAndTheReportResolvesThoseLinks) {
  docs::test::GitHttpServer server;
  auto commit = server.createRepository("acme", "shop", kShop);
  docs::test::TempDir work;
  auto run = runPiped({"generate", server.url() + "/acme/shop", "--out", work.path() + "/out", "--report"},
                      {{"DOCS_GITHUB_URL", server.url()}, {"DOCS_MERMAID_CHECK", work.path() + "/no-such-script.mjs"}});
  ASSERT_EQ(run.status, 0) << run.err;
  std::string api = readText(work.path() + "/out/files/shop/api.py.md");
  std::string blob = server.url() + "/acme/shop/blob/" + commit + "/shop/api.py#L";
  EXPECT_NE(api.find(blob), std::string::npos) << api;
  // Blob URLs are read as the paths they name: every one resolves.
  auto report = nlohmann::json::parse(readText(work.path() + "/out/report.json"));
  EXPECT_GT(report["source_links"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(report["source_links_resolving_share"].get<double>(), 1.0) << report.dump(2);
}

TEST(GenerateCommand, WithLlmBaseUrlTheModelWritesFilePagesAndABrokenAnswerFallsBack) {
  docs::test::TempDir work;
  writeTree(work.path() + "/shop-src", kShop);
  auto offline = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/offline"});
  ASSERT_EQ(offline.status, 0) << offline.err;
  EXPECT_NE(offline.out.find("writer: offline"), std::string::npos) << offline.out;
  std::string offlineApi = readText(work.path() + "/offline/files/shop/api.py.md");
  ASSERT_FALSE(offlineApi.empty());

  // The model from the config file, named as a global option before the command.
  docs::test::FakeModel model;
  model.setDefault(docs::test::FakeModel::answer(nlohmann::json{
      {"paragraphs", {"`list_products` answers with every product [shop/api.py#L5-L7]."}},
      {"diagram", ""}}.dump()));
  std::ofstream(work.path() + "/docsd.json")
      << nlohmann::json{{"llm",
                         {{"base_url", model.url()}, {"model", "cli-writer"}, {"concurrency", 2}, {"max_attempts", 1}}}}
             .dump();
  auto written = runPiped({"--config", work.path() + "/docsd.json", "generate", work.path() + "/shop-src", "--out",
                           work.path() + "/model"});
  ASSERT_EQ(written.status, 0) << written.err << written.out;
  expectShopTree(work.path() + "/model");  // the model's citations are source links that resolve too
  std::string api = readText(work.path() + "/model/files/shop/api.py.md");
  EXPECT_NE(api.find("answers with every product"), std::string::npos) << api;
  EXPECT_NE(api.find("](shop/api.py#L5-L7)"), std::string::npos) << api;
  auto requests = model.requests();
  ASSERT_GE(requests.size(), 3u);  // one per file page
  for (const auto& request : requests) EXPECT_EQ(request["model"], "cli-writer");
  std::smatch used;
  ASSERT_TRUE(std::regex_search(
      written.out, used,
      std::regex(R"(writer: model cli-writer at \S+ wrote the opening of ([0-9]+) file pages; 0 fell back)")))
      << written.out;
  EXPECT_EQ(std::stoul(used[1]), requests.size());

  // An answer that is not the JSON asked for (here from DOCS_LLM_*): every file page stays offline.
  model.setDefault(docs::test::FakeModel::answer("Sure! Here is the page."));
  auto fallback = runPiped({"generate", work.path() + "/shop-src", "--out", work.path() + "/fallback"},
                           {{"DOCS_LLM_BASE_URL", model.url()}, {"DOCS_LLM_MAX_ATTEMPTS", "1"}});
  ASSERT_EQ(fallback.status, 0) << fallback.err << fallback.out;
  EXPECT_EQ(readText(work.path() + "/fallback/files/shop/api.py.md"), offlineApi);
  EXPECT_NE(fallback.out.find("wrote the opening of 0 file pages"), std::string::npos) << fallback.out;
  EXPECT_NE(fallback.err.find("the offline page stays: shop/api.py: the model's answer is not the JSON"),
            std::string::npos)
      << fallback.err;
}

// A package.json nested 500,000 deep and source files with an 80 KB line among short ones
// used to overflow the stack (SIGSEGV) in the inventory and the analysis; now the run
// finishes, from a folder and from a ZIP, and the long-lined files are set aside.
TEST(GenerateCommand, DeepJsonAndAn80KbLineEndTheRunCleanly) {
  docs::test::TempDir work;
  auto files = kShop;
  std::string shortLines;
  for (int i = 0; i < 300; ++i) shortLines += "const value" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  files["package.json"] = "{\"name\":\"shop\",\"main\":" + std::string(500000, '[') + std::string(500000, ']') + "}";
  files["web/app.js"] = shortLines + "import x from '" + std::string(80 * 1024, 'a') + "'\n";
  files["tools/gen.py"] = "\"\"\"Generated.\"\"\"\n" + shortLines + "import " + std::string(80 * 1024, 'b') + "\n";
  writeTree(work.path() + "/src", files);
  auto run = runPiped({"generate", work.path() + "/src", "--out", work.path() + "/out"});
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  expectShopTree(work.path() + "/out");
  EXPECT_FALSE(fs::exists(work.path() + "/out/files/web/app.js.md"));

  std::vector<docs::test::ZipEntry> entries;
  for (const auto& [path, text] : files) entries.push_back({path, text});
  docs::test::writeZip(work.path() + "/src.zip", entries);
  run = runPiped({"generate", work.path() + "/src.zip", "--out", work.path() + "/zip-out", "--report"},
                 {{"DOCS_MERMAID_CHECK", work.path() + "/no-such-script.mjs"}});
  ASSERT_EQ(run.status, 0) << run.err << run.out;
  expectShopTree(work.path() + "/zip-out");
  EXPECT_TRUE(fs::exists(work.path() + "/zip-out/report.json"));
}
