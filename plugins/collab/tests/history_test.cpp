// Page history in the real docsd: versions cut when editing pauses (with their authors),
// listing, reading as json/md/html, diffs, restore (through the open room, with two
// editors connected, and through storage), thinning, and who may do what.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include "test_support.hpp"

using docs::test::base64;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using docs::test::SignedIn;
using nlohmann::json;

namespace {

json paragraph(const std::string& text) {
  return {{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}};
}

std::vector<std::uint8_t> unbase64(const std::string& text) {
  std::vector<std::uint8_t> out;
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (v < 0) continue;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

class HistoryTest : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab");
    env.emplace("DOCS_COLLAB_COMPACT_DEBOUNCE_MS", "100");
    env.emplace("DOCS_HISTORY_IDLE_SECONDS", "1");
    env.emplace("DOCS_HISTORY_SNAPSHOT_CHECK_MS", "200");
    Docsd::Options options;
    options.env = env;
    options.dataDir = dataDir_.path();
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
    bob_ = docs::test::signInByEmail(*docsd_, "bob@example.com");
    victor_ = docs::test::signInByEmail(*docsd_, "victor@example.com");
    mallory_ = docs::test::signInByEmail(*docsd_, "mallory@example.com");
    auto r = call(alice_, "POST", "/api/project", json{{"name", "History"}, {"is_private", true}}.dump());
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.body;
    projectId_ = json::parse(r.body)["id"].get<std::int64_t>();
    auto project = call(alice_, "GET", "/api/project?projectId=" + std::to_string(projectId_));
    pageId_ = json::parse(project.body)["default_page_id"].get<std::int64_t>();
    for (auto [email, role] : {std::pair{"bob@example.com", "write"}, std::pair{"victor@example.com", "read"}}) {
      auto g = call(alice_, "POST", "/api/rbac/project",
                    json{{"project_id", projectId_}, {"email", email}, {"role", role}}.dump());
      ASSERT_TRUE(g.status == 200 || g.status == 201) << g.body;
    }
    room_ = std::to_string(projectId_) + "__" + std::to_string(pageId_);
  }

  HttpResponse call(const SignedIn& who, const std::string& method, const std::string& target,
                    const std::string& body = "") {
    std::map<std::string, std::string> headers;
    if (!who.token.empty()) headers = who.bearer();
    if (!body.empty()) headers["Content-Type"] = "application/json";
    return httpRequest(docsd_->port(), method, target, body, headers);
  }
  std::string history(std::int64_t pageId = 0) {
    return "/api/page/" + std::to_string(pageId ? pageId : pageId_) + "/history";
  }

  // Replaces the page's content with these blocks (REST, as a change on top of it).
  void setBlocks(const std::vector<json>& blocks) {
    auto current = call(alice_, "GET", "/api/page/" + std::to_string(pageId_) + "/content");
    docs::ydoc::Doc doc(0x5eed0000 + (++edits_));
    if (current.status == 200) {
      auto bytes = unbase64(json::parse(current.body)["content_bytea"].get<std::string>());
      doc.applyUpdate(bytes);
    }
    auto before = doc.encodeStateVector();
    docs::ydoc::applyProseMirrorJson(doc, json{{"type", "doc"}, {"content", blocks}});
    auto update = doc.encodeStateAsUpdate(before);
    auto put = call(alice_, "PUT", "/api/page/" + std::to_string(pageId_) + "/content",
                    json{{"content_bytea", base64(update)}}.dump());
    ASSERT_EQ(put.status, 200) << put.body;
  }

  // Waits (generous deadline) for the newest version's Markdown to contain `text`.
  json waitForVersionWith(const std::string& text) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      auto list = call(alice_, "GET", history());
      if (list.status == 200) {
        auto versions = json::parse(list.body)["versions"];
        if (!versions.empty()) {
          auto md = call(alice_, "GET",
                         history() + "/" + std::to_string(versions[0]["id"].get<std::int64_t>()) + "?format=md");
          if (md.body.find(text) != std::string::npos) return versions[0];
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "no version with " << text;
    return json();
  }

  json scenario(json spec) {
    spec["url"] = "ws://127.0.0.1:" + std::to_string(docsd_->port()) + "/collaboration";
    spec["api"] = "http://127.0.0.1:" + std::to_string(docsd_->port());
    spec["room"] = room_;
    spec["pageId"] = pageId_;
    auto [code, output] =
        docs::test::runCommand({"node", docs::test::sourceDir() + "/tests/collab/scenario.cjs", spec.dump()});
    auto last = output.substr(output.rfind("\n{") == std::string::npos ? 0 : output.rfind("\n{") + 1);
    json result = json::parse(last, nullptr, false);
    EXPECT_EQ(code, 0) << output;
    return result.is_discarded() ? json{{"error", output}} : result;
  }

  static bool hasAuthor(const json& version, const SignedIn& who) {
    for (const auto& author : version["authors"])
      if (author["id"] == who.userId) return true;
    return false;
  }

  docs::test::TestDatabase database_;
  docs::test::TempDir dataDir_;
  std::unique_ptr<Docsd> docsd_;
  SignedIn alice_, bob_, victor_, mallory_;
  std::int64_t projectId_ = 0, pageId_ = 0;
  std::string room_;
  int edits_ = 0;
};

}  // namespace

TEST_F(HistoryTest, VersionsAreTakenWhenEditingPausesWithTheirAuthorsAndReadInEveryFormat) {
  start();
  docs::test::TempDir acks;
  auto bob = scenario({{"scenario", "edits"},
                       {"tokens", {bob_.token}},
                       {"count", 2},
                       {"prefix", "bob wrote "},
                       {"ackFile", acks.path() + "/acks"}});
  ASSERT_FALSE(bob.contains("error")) << bob.dump();
  auto first = waitForVersionWith("bob wrote 1");
  ASSERT_TRUE(first.is_object());
  EXPECT_TRUE(hasAuthor(first, bob_)) << first.dump();
  EXPECT_EQ(first["authors"].size(), 1u) << first.dump();
  EXPECT_TRUE(first["label"].is_null());
  auto id = std::to_string(first["id"].get<std::int64_t>());

  // A second pause, another author: a new version, newest first.
  setBlocks({paragraph("alice rewrote it")});
  auto second = waitForVersionWith("alice rewrote it");
  ASSERT_TRUE(second.is_object());
  EXPECT_GT(second["id"].get<std::int64_t>(), first["id"].get<std::int64_t>());
  EXPECT_FALSE(hasAuthor(second, bob_));

  auto asJson = call(victor_, "GET", history() + "/" + id);  // a reader reads history
  ASSERT_EQ(asJson.status, 200) << asJson.body;
  auto version = json::parse(asJson.body);
  EXPECT_EQ(version["doc"]["type"], "doc");
  EXPECT_NE(version["doc"].dump().find("bob wrote 1"), std::string::npos);
  EXPECT_EQ(version["authors"][0]["id"], bob_.userId);
  auto md = call(victor_, "GET", history() + "/" + id + "?format=md");
  EXPECT_EQ(md.status, 200);
  EXPECT_NE(md.body.find("bob wrote 0"), std::string::npos);
  EXPECT_EQ(md.body.find("alice rewrote"), std::string::npos);
  EXPECT_NE(md.header("content-type").find("text/markdown"), std::string::npos);
  auto html = call(victor_, "GET", history() + "/" + id + "?format=html");
  EXPECT_EQ(html.status, 200);
  EXPECT_NE(html.body.find("<p>bob wrote 1</p>"), std::string::npos) << html.body;
  EXPECT_NE(html.header("content-security-policy").find("sandbox"), std::string::npos);

  // Paged, newest first: one per page, the cursor leads to the older one.
  auto page1 = json::parse(call(victor_, "GET", history() + "?limit=1").body);
  ASSERT_EQ(page1["versions"].size(), 1u);
  EXPECT_EQ(page1["versions"][0]["id"], second["id"]);
  ASSERT_FALSE(page1["next_cursor"].is_null());
  auto all = json::parse(call(victor_, "GET", history() + "?limit=200").body);
  EXPECT_TRUE(all["next_cursor"].is_null());
  auto page2 = json::parse(
      call(victor_, "GET", history() + "?limit=1&cursor=" + std::to_string(page1["next_cursor"].get<std::int64_t>()))
          .body);
  ASSERT_EQ(page2["versions"].size(), 1u);
  EXPECT_LT(page2["versions"][0]["id"].get<std::int64_t>(), second["id"].get<std::int64_t>());
}

TEST_F(HistoryTest, DiffNamesBlocksAddedRemovedChangedAndTheWordsInside) {
  start();
  setBlocks({paragraph("alpha beta gamma"), paragraph("stays"), paragraph("goes away")});
  auto v1 = waitForVersionWith("goes away");
  setBlocks({paragraph("alpha delta gamma"), paragraph("stays"), paragraph("brand new"), paragraph("and another")});
  auto v2 = waitForVersionWith("brand new");
  ASSERT_TRUE(v1.is_object() && v2.is_object());
  auto v1Id = std::to_string(v1["id"].get<std::int64_t>()), v2Id = std::to_string(v2["id"].get<std::int64_t>());
  // v1 against the current page (== v2): what restoring v1 would change.
  auto current = call(victor_, "GET", history() + "/" + v1Id + "/diff?against=current");
  ASSERT_EQ(current.status, 200) << current.body;
  auto diff = json::parse(current.body);
  EXPECT_EQ(diff["changed"], 2) << diff.dump();  // alpha..gamma, brand new -> goes away
  EXPECT_EQ(diff["removed"], 1) << diff.dump();  // "and another" is not in v1
  EXPECT_EQ(diff["added"], 0) << diff.dump();
  EXPECT_EQ(diff["blocks"][0]["change"], "changed");
  EXPECT_EQ(
      diff["blocks"][0]["text"],
      json::parse(
          R"([{"op":"equal","text":"alpha "},{"op":"delete","text":"delta"},{"op":"insert","text":"beta"},{"op":"equal","text":" gamma"}])"));
  auto other = json::parse(call(victor_, "GET", history() + "/" + v2Id + "/diff?against=" + v1Id).body);
  EXPECT_EQ(other["added"], 1) << other.dump();
  EXPECT_EQ(other["changed"], 2) << other.dump();
  EXPECT_EQ(other["blocks"][1]["change"], "same");
  // Default is against the current page.
  EXPECT_EQ(json::parse(call(victor_, "GET", history() + "/" + v2Id + "/diff").body)["changed"], 0);
}

TEST_F(HistoryTest, RestoreWhileTwoEditorsAreConnectedReachesBothAndLosesNothing) {
  start();
  setBlocks({paragraph("the good old text")});
  auto good = waitForVersionWith("the good old text");
  ASSERT_TRUE(good.is_object());
  auto result =
      scenario({{"scenario", "restoreLive"}, {"tokens", {bob_.token, alice_.token}}, {"version", good["id"]}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  ASSERT_EQ(result["status"], 200) << result.dump();
  std::string a = result["a"], b = result["b"];
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("the good old text"), std::string::npos) << a;
  EXPECT_EQ(a.find("typed before by A"), std::string::npos) << a;  // the restore removed it...
  EXPECT_NE(a.find("typed after by A"), std::string::npos) << a;
  EXPECT_NE(a.find("typed after by B"), std::string::npos) << a;
  EXPECT_EQ(result["stored"], a);
  // ...and the version taken before it holds everything typed until then: restoring
  // that one undoes the restore.
  auto before = std::to_string(result["body"]["before_version"].get<std::int64_t>());
  auto beforeMd = call(alice_, "GET", history() + "/" + before + "?format=md").body;
  EXPECT_NE(beforeMd.find("typed before by A"), std::string::npos) << beforeMd;
  EXPECT_NE(beforeMd.find("typed before by B"), std::string::npos) << beforeMd;
  auto listed = json::parse(call(alice_, "GET", history()).body)["versions"];
  bool labelled = false;
  for (const auto& v : listed)
    if (std::to_string(v["id"].get<std::int64_t>()) == before)
      labelled = v["label"] == "Before restoring version " + std::to_string(good["id"].get<std::int64_t>());
  EXPECT_TRUE(labelled) << listed.dump();

  // Nobody connected: the restore goes through storage; the page reads as the version.
  auto undo = call(alice_, "POST", history() + "/" + before + "/restore", "{}");
  ASSERT_EQ(undo.status, 200) << undo.body;
  auto exported = call(alice_, "GET", "/api/page/" + std::to_string(pageId_) + "/export?format=md").body;
  EXPECT_NE(exported.find("typed before by B"), std::string::npos) << exported;
  EXPECT_EQ(exported.find("typed after by B"), std::string::npos) << exported;
  // The restorer is the author of the change it made.
  auto after = waitForVersionWith("typed before by B");
  EXPECT_TRUE(hasAuthor(after, alice_)) << after.dump();
}

TEST_F(HistoryTest, StrangersReadersAndMalformedIdsAreRefused) {
  start();
  setBlocks({paragraph("secret words")});
  auto version = waitForVersionWith("secret words");
  ASSERT_TRUE(version.is_object());
  auto id = std::to_string(version["id"].get<std::int64_t>());
  SignedIn anonymous;
  for (const SignedIn* who : {&mallory_, &anonymous}) {
    EXPECT_EQ(call(*who, "GET", history()).status, 404);
    EXPECT_EQ(call(*who, "GET", history() + "/" + id).status, 404);
    EXPECT_EQ(call(*who, "GET", history() + "/" + id + "?format=md").status, 404);
    EXPECT_EQ(call(*who, "GET", history() + "/" + id + "/diff").status, 404);
    EXPECT_EQ(call(*who, "POST", history() + "/" + id + "/restore", "{}").status, 404);
    EXPECT_EQ(call(*who, "GET", history() + "/abc").status, 404);  // the page is hidden first
  }
  // A reader reads, never restores.
  EXPECT_EQ(call(victor_, "GET", history()).status, 200);
  EXPECT_EQ(call(victor_, "GET", history() + "/" + id + "/diff?against=current").status, 200);
  auto refused = call(victor_, "POST", history() + "/" + id + "/restore", "{}");
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_NE(refused.body.find("\"error\""), std::string::npos);
  // Malformed and unknown ids.
  EXPECT_EQ(call(alice_, "GET", history() + "/abc").status, 400);
  EXPECT_EQ(call(alice_, "GET", history() + "/-1").status, 400);
  EXPECT_EQ(call(alice_, "GET", history() + "/99999999").status, 404);
  EXPECT_EQ(call(alice_, "POST", history() + "/abc/restore", "{}").status, 400);
  EXPECT_EQ(call(alice_, "POST", history() + "/99999999/restore", "{}").status, 404);
  EXPECT_EQ(call(alice_, "GET", history() + "/" + id + "/diff?against=xyz").status, 400);
  EXPECT_EQ(call(alice_, "GET", history() + "/" + id + "/diff?against=99999999").status, 404);
  EXPECT_EQ(call(alice_, "GET", history() + "/" + id + "?format=pdf").status, 400);
  EXPECT_EQ(call(alice_, "GET", history() + "?cursor=zz").status, 400);
  EXPECT_EQ(call(alice_, "GET", history() + "?limit=0").status, 400);
  EXPECT_EQ(call(alice_, "GET", "/api/page/abc/history").status, 400);
  EXPECT_EQ(call(alice_, "GET", "/api/page/99999999/history").status, 404);
  // A version of another page is not a version of this one.
  auto r = call(alice_, "POST", "/api/project/" + std::to_string(projectId_) + "/page", json{{"name", "Other"}}.dump());
  ASSERT_EQ(r.status, 201) << r.body;
  auto otherPage = json::parse(r.body)["id"].get<std::int64_t>();
  EXPECT_EQ(call(alice_, "GET", history(otherPage) + "/" + id).status, 404);
  EXPECT_EQ(call(alice_, "POST", history(otherPage) + "/" + id + "/restore", "{}").status, 404);
  EXPECT_EQ(call(alice_, "GET", history(otherPage) + "/" + id + "/diff").status, 404);
  // Deleting the page deletes its history.
  EXPECT_EQ(call(alice_, "DELETE", "/api/page/" + std::to_string(otherPage)).status, 200);
}

TEST_F(HistoryTest, EditingThatGoesOnIsVersionedAtTheMaximumInterval) {
  start({{"DOCS_HISTORY_IDLE_SECONDS", "3600"}, {"DOCS_HISTORY_MAX_INTERVAL_SECONDS", "1"}});
  setBlocks({paragraph("still editing")});
  auto version = waitForVersionWith("still editing");
  EXPECT_TRUE(version.is_object());
}

TEST_F(HistoryTest, ThinningKeepsTheLastDayHourlyForAWeekDailyAfterAndLabelledOnes) {
  start({{"DOCS_HISTORY_THIN_INTERVAL_SECONDS", "1"}});
  setBlocks({paragraph("thin me")});
  auto version = waitForVersionWith("thin me");
  ASSERT_TRUE(version.is_object());
  auto id = std::to_string(version["id"].get<std::int64_t>());
  std::string page = std::to_string(pageId_);
  auto sql = [&](const std::string& q) { return docs::test::sqlValue(database_.url(), q); };
  auto existing = std::stoi(sql("SELECT count(*) FROM page_versions WHERE page_id = " + page));  // all of today
  // Versions every 20 minutes over 10 days, oldest first, a labelled one among the old,
  // each with an author the thinning must carry to the version it keeps.
  sql("INSERT INTO page_versions (page_id, created_at, state, authors, label)"
      " SELECT " +
      page + ", now() - make_interval(mins => m), (SELECT state FROM page_versions WHERE id = " + id +
      "),"
      " ARRAY[" +
      bob_.userId +
      "]::bigint[], CASE WHEN m = 9 * 1440 THEN 'kept label' ELSE '' END"
      " FROM generate_series(10 * 1440, 20, -20) AS m");
  // Wait for the state the policy names: the last day whole, at most one per hour for a
  // week, one per day before (plus the labelled one).
  auto count = [&](const std::string& where) -> int {
    return std::stoi(sql("SELECT count(*) FROM page_versions WHERE page_id = " + page + " AND " + where));
  };
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  bool thinned = false;
  while (!thinned && std::chrono::steady_clock::now() < deadline) {
    thinned = count("created_at < now() - interval '7 days' AND label = ''") <= 4;
    if (!thinned) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(thinned);
  EXPECT_EQ(count("created_at > now() - interval '1 day' + interval '1 minute'"), existing + 71);  // 20..1420 minutes
  EXPECT_EQ(count("label = 'kept label'"), 1);
  auto perHour =
      sql("SELECT max(n) FROM (SELECT count(*) AS n FROM page_versions WHERE page_id = " + page +
          " AND label = '' AND created_at < now() - interval '1 day' AND created_at > now() - interval '7 days'"
          " GROUP BY date_trunc('hour', created_at)) h");
  EXPECT_EQ(perHour, "1");
  // Every author is still named somewhere in what is kept.
  EXPECT_EQ(count("authors @> ARRAY[" + bob_.userId + "]::bigint[] AND created_at < now() - interval '7 days'"),
            count("created_at < now() - interval '7 days'"));
}
