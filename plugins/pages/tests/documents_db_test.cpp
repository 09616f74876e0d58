// The Documents service of the built pages.so in the SDK's fake host, on a real database
// (a fresh one in the shared test cluster), without docsd: a fold is one transaction, a
// read merges the log without any room, and deleting a page drops its log.
#include <gtest/gtest.h>

#include <docs/services/access_control.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>
#include <docs/testing/fake_host.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <stdexcept>

#include "db/pg_pool.hpp"
#include "test_support.hpp"

using docs::Json;

namespace {

// The projects plugin as pages sees it here: every project exists, nothing is stored.
class AnyProject final : public docs::Projects {
 public:
  std::optional<docs::ProjectSummary> find(std::int64_t projectId) override {
    docs::ProjectSummary summary;
    summary.id = projectId;
    return summary;
  }
  bool setStatus(std::int64_t, docs::ProjectStatus) override { return true; }
  void setDefaultPage(docs::Tx&, std::int64_t, std::int64_t) override {}
  std::string uploadedArchive(std::int64_t) override { return {}; }
  bool holdProject(docs::Tx&, std::int64_t) override { return true; }
  std::vector<std::int64_t> uploadsInStatus(docs::ProjectStatus, int) override { return {}; }
  bool setRagStatus(std::int64_t, std::string_view) override { return true; }
  bool setCommitHash(std::int64_t, std::string_view) override { return true; }
  std::optional<docs::ProjectSummary> findByGitUrl(std::string_view) override { return std::nullopt; }
  std::vector<std::int64_t> publicProjectIds(int) override { return {}; }
  bool setInstallation(std::int64_t, std::int64_t) override { return true; }
  bool setInstallation(std::int64_t, std::int64_t, std::int64_t) override { return true; }
};

// Nobody may do anything: these tests call services, not routes.
class NobodyMay final : public docs::AccessControl {
 public:
  docs::Role grantedRole(std::int64_t, const std::optional<docs::Principal>&) override { return docs::Role::None; }
  docs::Role require(std::int64_t, const std::optional<docs::Principal>&, docs::Role) override {
    throw std::logic_error("no route is called here");
  }
  docs::Role requireKnown(std::int64_t, bool, const std::optional<docs::Principal>&, docs::Role) override {
    throw std::logic_error("no route is called here");
  }
  std::vector<std::pair<std::int64_t, docs::Role>> grantsOf(const docs::Principal&) override { return {}; }
  void grantCreator(docs::Tx&, std::int64_t, const docs::Principal&) override {}
  void removeProject(docs::Tx&, std::int64_t) override {}
};

std::string asText(const std::vector<std::uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }

// A Yjs update that adds one paragraph to `base` (written by client `client`).
std::string paragraphAfter(const std::string& base, const std::string& text, std::uint64_t client) {
  docs::ydoc::Doc doc(client);
  if (!base.empty()) doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(base.data()), base.size()});
  auto before = doc.encodeStateVector();
  docs::ydoc::appendProseMirrorJson(
      doc,
      {{"type", "doc"}, {"content", {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}}}}});
  return asText(doc.encodeStateAsUpdate(before));
}

std::string markdownOf(const std::string& update) {
  docs::ydoc::Doc doc;
  if (!update.empty()) doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(update.data()), update.size()});
  return docs::ydoc::toMarkdown(docs::ydoc::toProseMirrorJson(doc));
}

class DocumentsDb : public ::testing::Test {
 protected:
  void SetUp() override {
    host_.registry().provide<docs::Projects>(projects_);
    host_.registry().provide<docs::AccessControl>(access_);
    host_.context().useDatabase(pool_);
    host_.run(*plugin_.plugin);
    ASSERT_TRUE(host_.started());
    documents_ = host_.registry().providedService<docs::Documents>();
    pages_ = host_.registry().providedService<docs::Pages>();
    ASSERT_NE(documents_, nullptr);
    ASSERT_NE(pages_, nullptr);
    pool_.transaction([&](docs::Tx& tx) { pageId_ = pages_->create(tx, 7, 0, "Notes", "file"); });
  }

  std::int64_t logRows() {
    return pool_.exec("SELECT count(*) AS n FROM page_log WHERE page_id = $1", {pageId_})[0].int64("n");
  }

  docs::test::TestDatabase database_;
  docs::core::PgPool pool_{{database_.url(), 2, 30000}};
  AnyProject projects_;
  NobodyMay access_;
  docs::testing::LoadedPlugin plugin_ = docs::testing::loadPlugin(DOCS_PAGES_PLUGIN);
  docs::testing::FakeHost host_{"pages"};
  docs::Documents* documents_ = nullptr;
  docs::Pages* pages_ = nullptr;
  std::int64_t pageId_ = 0;
};

TEST_F(DocumentsDb, AReadMergesTheStoredContentWithTheLog) {
  auto first = paragraphAfter("", "stored words", 11);
  ASSERT_TRUE(documents_->replace(pageId_, first));
  auto second = paragraphAfter(first, "logged words", 12);
  auto ids = documents_->append("node-a", {docs::LogRow{pageId_, {second}, 5}});
  ASSERT_EQ(ids.size(), 1u);
  auto read = documents_->read(pageId_);
  ASSERT_TRUE(read);
  auto markdown = markdownOf(*read);
  EXPECT_NE(markdown.find("stored words"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("logged words"), std::string::npos) << markdown;
  // Unmerged, as a room loads it.
  auto loaded = documents_->load(pageId_);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->content, first);
  ASSERT_EQ(loaded->log.size(), 1u);
  EXPECT_EQ(loaded->log[0].id, ids[0]);
  EXPECT_FALSE(documents_->read(pageId_ + 1000));
}

TEST_F(DocumentsDb, AFoldThatFailsChangesNothingAndOneThatSucceedsStoresAndTruncatesTogether) {
  auto mine = paragraphAfter("", "from node a", 21);
  auto theirs = paragraphAfter("", "from node b", 22);
  documents_->append("node-a", {docs::LogRow{pageId_, {mine}, 1}});
  auto theirIds = documents_->append("node-b", {docs::LogRow{pageId_, {theirs}, 2}});
  ASSERT_EQ(logRows(), 2);

  auto merge = [&](const docs::FoldInput& input) {
    docs::ydoc::Doc doc;
    for (const auto& other : input.others)
      doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(other.bytes.data()), other.bytes.size()});
    doc.applyUpdate({reinterpret_cast<const std::uint8_t*>(mine.data()), mine.size()});
    return asText(doc.encodeStateAsUpdate());
  };
  // The history's bookkeeping fails after the content was written: all of it rolls back.
  EXPECT_THROW(documents_->fold(pageId_, "node-a", INT64_MAX, merge,
                                [](docs::Tx&, const docs::FoldedRows&, std::string_view) {
                                  throw std::runtime_error("history failed");
                                }),
               std::runtime_error);
  EXPECT_EQ(logRows(), 2);
  EXPECT_EQ(documents_->load(pageId_)->content, "");

  docs::FoldedRows seen;
  // Up to node b's row: node a's own rows and the other rows read go together.
  ASSERT_TRUE(documents_->fold(pageId_, "node-a", theirIds[0], merge,
                               [&](docs::Tx&, const docs::FoldedRows& folded, std::string_view before) {
                                 seen = folded;
                                 EXPECT_EQ(before, "");
                               }));
  EXPECT_EQ(seen.rows, 2);
  EXPECT_EQ(seen.authors, (std::vector<std::int64_t>{1, 2}));
  EXPECT_FALSE(seen.firstChange.empty());
  EXPECT_LE(seen.firstChange, seen.lastChange);
  EXPECT_EQ(logRows(), 0);
  auto markdown = markdownOf(documents_->load(pageId_)->content);
  EXPECT_NE(markdown.find("from node a"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("from node b"), std::string::npos) << markdown;
}

TEST_F(DocumentsDb, WithoutHistoryAnEditIsStoredAtOnceAndAnUpdateThatDoesNotApplyIsRefused) {
  auto base = paragraphAfter("", "first", 31);
  ASSERT_TRUE(documents_->apply(pageId_, base, std::nullopt));
  auto next = paragraphAfter(base, "second", 31);
  ASSERT_TRUE(documents_->apply(pageId_, next, 9));
  EXPECT_EQ(logRows(), 0);  // nobody folds without collab's history: stored at once
  auto markdown = markdownOf(documents_->load(pageId_)->content);
  EXPECT_NE(markdown.find("second"), std::string::npos) << markdown;
  // Published for rooms and the search index.
  EXPECT_EQ(host_.context().events().payloadsOf("page.content_replaced").size(), 2u);

  // Builds on a change the page never had.
  auto elsewhere = paragraphAfter(paragraphAfter("", "unknown", 41), "orphan", 41);
  EXPECT_THROW(documents_->apply(pageId_, elsewhere, std::nullopt), std::invalid_argument);
  EXPECT_THROW(documents_->apply(pageId_, "not yjs", std::nullopt), std::invalid_argument);
  EXPECT_FALSE(documents_->apply(pageId_ + 1000, base, std::nullopt));
  EXPECT_NE(markdownOf(documents_->load(pageId_)->content).find("second"), std::string::npos);
}

TEST_F(DocumentsDb, DeletingAPageDropsItsLogAndAReplaceDropsItToo) {
  auto update = paragraphAfter("", "soon gone", 51);
  documents_->append("node-a", {docs::LogRow{pageId_, {update, update}, std::nullopt}});
  ASSERT_EQ(logRows(), 1);  // two updates packed in one row
  ASSERT_EQ(documents_->load(pageId_)->log.size(), 2u);
  ASSERT_TRUE(documents_->replace(pageId_, update));
  EXPECT_EQ(logRows(), 0);
  EXPECT_THROW(documents_->replace(pageId_, "not yjs"), std::invalid_argument);

  documents_->append("node-a", {docs::LogRow{pageId_, {update}, std::nullopt}});
  ASSERT_TRUE(pages_->remove(pageId_));
  EXPECT_EQ(logRows(), 0);
  EXPECT_FALSE(documents_->load(pageId_));
  // A row written for a page deleted meanwhile is dropped by the next fold.
  documents_->append("node-a", {docs::LogRow{pageId_, {update}, std::nullopt}});
  EXPECT_FALSE(documents_->fold(
      pageId_, "node-a", INT64_MAX, [](const docs::FoldInput&) { return std::string(); },
      [](docs::Tx&, const docs::FoldedRows&, std::string_view) {}));
  EXPECT_EQ(logRows(), 0);
}

}  // namespace
