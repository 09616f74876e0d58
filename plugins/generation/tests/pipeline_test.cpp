// The pipeline's parts that need no server: the bounded pool, the status table, the
// settings table and its reader, `docsd generate`'s Markdown sink, and what a run keeps.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "generation_settings.hpp"
#include "pipeline/markdown_sink.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/worker_pool.hpp"
#include "project_status.hpp"
#include "stage_progress.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace docs_generation;

TEST(WorkerPool, RunsEveryItemOnceOnAtMostTheThreadsAsked) {
  std::mutex mutex;
  std::multiset<std::size_t> seen;
  std::set<std::thread::id> threads;
  std::atomic<int> running{0}, most{0};
  runBounded(40, 3, [&](std::size_t i) {
    int now = ++running;
    for (int seenMost = most; now > seenMost && !most.compare_exchange_weak(seenMost, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --running;
    std::lock_guard lock(mutex);
    seen.insert(i);
    threads.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(seen.size(), 40u);
  for (std::size_t i = 0; i < 40; ++i) EXPECT_EQ(seen.count(i), 1u) << i;
  EXPECT_LE(most.load(), 3);
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);  // workers, not the caller
}

TEST(WorkerPool, OneThreadRunsOnTheCallerWithTheHookAfterEachItem) {
  std::vector<std::string> order;
  auto caller = std::this_thread::get_id();
  runBounded(3, 1,
             [&](std::size_t i) {
               EXPECT_EQ(std::this_thread::get_id(), caller);
               order.push_back("task " + std::to_string(i));
             },
             {[&] { order.push_back("after"); }, [&] { order.push_back("waiting"); }});
  EXPECT_EQ(order, (std::vector<std::string>{"task 0", "after", "task 1", "after", "task 2", "after"}));
}

TEST(WorkerPool, TheFirstFailureStopsTheOthersAndIsThrownToTheCaller) {
  std::atomic<int> ran{0};
  EXPECT_THROW(runBounded(1000, 4,
                          [&](std::size_t i) {
                            ++ran;
                            if (i == 5) throw std::runtime_error("page 5");
                            std::this_thread::sleep_for(std::chrono::milliseconds(1));
                          }),
               std::runtime_error);
  EXPECT_LT(ran.load(), 1000);
  // A hook's failure stops the workers too.
  std::atomic<int> started{0};
  EXPECT_THROW(runBounded(1000, 2,
                          [&](std::size_t) {
                            ++started;
                            std::this_thread::sleep_for(std::chrono::milliseconds(5));
                          },
                          {{}, [] { throw std::invalid_argument("stop"); }}),
               std::invalid_argument);
  EXPECT_LT(started.load(), 1000);
}

TEST(ProjectStatus, StagesAndPushesMapOntoTheSdkStatuses) {
  EXPECT_EQ(failedAtStage("unpack"), Status::CloneFail);
  EXPECT_EQ(failedAtStage("clone"), Status::CloneFail);
  EXPECT_EQ(failedAtStage("sync"), Status::PullFail);
  EXPECT_EQ(failedAtStage("analyze"), Status::FileOverviewsFailed);
  EXPECT_EQ(failedAtStage("write"), Status::DocFailure);
  EXPECT_EQ(failedFrom("DOC_TOPICS_GENERATING", Status::DocFailure), Status::TopicsFailed);
  EXPECT_EQ(failedFrom("DOC_SUCCESS", Status::PullFail), Status::PullFail);
  EXPECT_EQ(failedFrom("no such status", Status::CloneFail), Status::CloneFail);
  EXPECT_TRUE(isFailedName("DOC_TOPICS_FAILED"));
  EXPECT_FALSE(isFailedName("READY"));
  EXPECT_FALSE(isFailedName("doc_failure"));
  for (auto status :
       {Status::DocSuccess, Status::PullFail, Status::DocFailure, Status::FilePagesFailed, Status::DocUpdating})
    EXPECT_EQ(onPush(status), OnPush::Sync) << toString(status);
  for (auto status : {Status::CloneFail, Status::FileOverviewsFailed, Status::ProjectOverviewFailed,
                      Status::TopicsFailed, Status::TopicPagesFailed})
    EXPECT_EQ(onPush(status), OnPush::StartOver) << toString(status);
  for (auto status : {Status::Idle, Status::Ready, Status::RequestToClone, Status::Cloning, Status::DocPending,
                      Status::FilePagesGenerating})
    EXPECT_EQ(onPush(status), OnPush::Wait) << toString(status);
  // Every failure a push meets either restarts the run or syncs it: none is left waiting.
  for (auto status : docs::kProjectStatuses)
    if (isFailed(status)) {
      EXPECT_NE(onPush(status), OnPush::Wait) << toString(status);
    }
}

TEST(GenerationSettings, OneTableGivesTheServerAndTheCommandTheSameDefaults) {
  auto settings = readGenerationSettings([](const std::string&) -> std::optional<std::string> { return std::nullopt; });
  EXPECT_EQ(settings.ctags, "ctags");
  EXPECT_EQ(settings.maxFiles, 20000u);
  EXPECT_EQ(settings.maxUnpackedBytes, 1ull << 30);
  EXPECT_EQ(settings.clonePolicy.trustedBase, "https://github.com");
  EXPECT_EQ(settings.clonePolicy.allowedHosts, std::vector<std::string>{"github.com"});
  EXPECT_FALSE(settings.clonePolicy.allowFileUrls);
  EXPECT_EQ(settings.gitLimits.maxEntries, 40000u);
  EXPECT_EQ(settings.gitLimits.maxReceivedBytes, GitLimits{}.maxReceivedBytes);
  EXPECT_EQ(settings.gitLimits.maxUnpackedBytes, GitLimits{}.maxUnpackedBytes);
  EXPECT_FALSE(settings.model.configured());
  EXPECT_EQ(settings.model.model, "gpt-4o-mini");
  EXPECT_EQ(settings.model.concurrency, 4);
  EXPECT_EQ(settings.maxModelPages, 200);
  EXPECT_EQ(settings.maxRunSeconds, 3600);
  EXPECT_EQ(settings.reconcileSeconds, 300);
  EXPECT_TRUE(settings.deprecatedInUse.empty());
  // Every key has one row; the command's keys come first, in the order `docsd help` lists.
  std::set<std::string_view> names;
  bool serverOnly = false;
  for (const auto& key : generationKeys()) {
    EXPECT_TRUE(names.insert(key.name).second) << key.name;
    if (!key.readByCommand) serverOnly = true;
    else EXPECT_FALSE(serverOnly) << key.name;
  }
  EXPECT_EQ(generationKeys().front().name, "github.url");
}

TEST(GenerationSettings, RenamedKeysCountWhileTheNewOnesKeepTheirDefaults) {
  std::map<std::string, std::string> values = {{"generation.allowed_git_hosts", " GitLab.com, codeberg.org"},
                                               {"generation.allow_file_urls", "true"},
                                               {"model.name", "old-model"}};
  auto settings = readGenerationSettings([&](const std::string& key) -> std::optional<std::string> {
    auto found = values.find(key);
    if (found == values.end()) return std::nullopt;
    return found->second;
  });
  EXPECT_EQ(settings.clonePolicy.allowedHosts, (std::vector<std::string>{"gitlab.com", "codeberg.org"}));
  EXPECT_TRUE(settings.clonePolicy.allowFileUrls);
  EXPECT_EQ(settings.model.model, "old-model");
  EXPECT_EQ(settings.deprecatedInUse.size(), 3u);
  values["generation.allowed_hosts"] = "example.org";  // the new name wins once set
  settings = readGenerationSettings([&](const std::string& key) -> std::optional<std::string> {
    auto found = values.find(key);
    if (found == values.end()) return std::nullopt;
    return found->second;
  });
  EXPECT_EQ(settings.clonePolicy.allowedHosts, std::vector<std::string>{"example.org"});
}

TEST(MarkdownDirSink, WritesEachPageAsMarkdownWithRelativeLinksAndTheTreeAsIndexJson) {
  docs::test::TempDir out;
  std::vector<PageDraft> pages(3);
  pages[0].key = "overview";
  pages[0].title = "Shop";
  pages[1].key = "topic:shop";
  pages[1].parentKey = "overview";
  pages[1].title = "shop";
  pages[2].key = "file:shop/api.py";
  pages[2].parentKey = "topic:shop";
  pages[2].title = "api.py";
  pages[2].type = "file";
  MarkdownDirSink sink(out.path() + "/docs");
  sink.prepare(pages);
  EXPECT_EQ(sink.href("file:shop/api.py", "topic:shop"), "../../topics/shop.md");
  EXPECT_EQ(sink.href("overview", "file:shop/api.py"), "files/shop/api.py.md");
  EXPECT_EQ(sink.href("overview", "file:missing.py"), "");
  for (auto& page : pages)
    sink.store(page, [](PageDraft& draft) {
      nlohmann::json text = {{"type", "text"}, {"text", draft.title}};
      nlohmann::json paragraph = {{"type", "paragraph"}, {"content", nlohmann::json::array({text})}};
      draft.content = {{"type", "doc"}, {"content", nlohmann::json::array({paragraph})}};
    });
  sink.finish(pages);
  std::ifstream api(out.path() + "/docs/files/shop/api.py.md");
  std::string text((std::istreambuf_iterator<char>(api)), {});
  EXPECT_NE(text.find("api.py"), std::string::npos) << text;
  std::ifstream indexFile(out.path() + "/docs/index.json");
  auto index = nlohmann::json::parse(indexFile);
  ASSERT_EQ(index.size(), 1u);
  EXPECT_EQ(index[0]["path"], "index.md");
  EXPECT_EQ(index[0]["children"][0]["children"][0]["path"], "files/shop/api.py.md");
  EXPECT_EQ(index[0]["children"][0]["children"][0]["type"], "file");
  EXPECT_EQ(markdownPath("topic:."), "topics/top-level.md");
  EXPECT_EQ(markdownPath("guide:docs/a:b.md"), "guides/docs/a_b.md.md");
}

namespace {

// Remembers each page as the sink received it, composed.
class RecordingSink final : public PageSink {
 public:
  void prepare(const std::vector<PageDraft>&) override {}
  bool wants(const PageDraft&) const override { return true; }
  std::string href(const std::string&, const std::string& to) const override { return "#" + to; }
  void store(PageDraft& page, const std::function<void(PageDraft&)>& compose) override {
    compose(page);
    std::lock_guard lock(mutex_);
    stored[page.key] = page.content.dump();
  }
  void finish(const std::vector<PageDraft>&) override {}
  std::map<std::string, std::string> stored;

 private:
  std::mutex mutex_;
};

}  // namespace

// A page's content is the biggest thing a run holds: once the sink has it, it is freed,
// unless the caller asked to keep it (`docsd generate --report` measures the pages).
TEST(Pipeline, APageContentIsFreedOnceStoredUnlessTheCallerKeepsIt) {
  docs::test::TempDir tree;
  fs::create_directories(fs::path(tree.path()) / "shop");
  std::ofstream(fs::path(tree.path()) / "README.md") << "# Shop\n\nA small shop.\n";
  std::ofstream(fs::path(tree.path()) / "shop" / "cart.py") << "def add(item):\n    return [item]\n";
  std::ofstream(fs::path(tree.path()) / "shop" / "api.py") << "class Api:\n    def get(self):\n        return 1\n";
  QuietProgress progress;
  auto analysis = analyzeTree(tree.path(), {}, progress);
  SourceTree sources{tree.path(), "en", "", ""};
  for (bool keep : {false, true}) {
    RecordingSink sink;
    WriterSettings settings;
    settings.keepContent = keep;
    auto result = Pipeline(settings).run(sources, analysis, sink, progress);
    ASSERT_GE(result.pages.size(), 3u);
    for (const auto& page : result.pages) {
      ASSERT_TRUE(sink.stored.count(page.key)) << page.key;
      EXPECT_NE(sink.stored[page.key].find("\"type\":\"doc\""), std::string::npos)
          << page.key;  // the sink got it whole
      if (keep) EXPECT_EQ(page.content.dump(), sink.stored[page.key]) << page.key;
      else EXPECT_TRUE(page.content.is_null()) << page.key << " kept " << page.content.dump().size() << " bytes";
    }
  }
}
