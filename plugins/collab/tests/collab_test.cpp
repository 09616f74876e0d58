// The collab plugin in the real docsd, driven by the real @hocuspocus/provider and yjs
// (tests/collab/scenario.cjs): convergence, late joiners, awareness, read-only viewers,
// refused tokens, demotion while connected, hostile frames, and kill -9 durability.
#include <gtest/gtest.h>

#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/lib0.hpp>
#include <docs/ydoc/prosemirror.hpp>
#include <docs/ydoc/update.hpp>

#include "crypto.hpp"
#include "jwt.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using docs::test::SignedIn;
using nlohmann::json;

namespace {

// The value of an unlabelled sample line "NAME VALUE" (or NAME{labels} written out), or -1.
double metricValue(const std::string& text, const std::string& sample) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(sample + " ", 0) == 0) return std::stod(line.substr(sample.size() + 1));
  return -1;
}

std::string scenarioScript() { return docs::test::sourceDir() + "/tests/collab/scenario.cjs"; }

class CollabTest : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_COLLAB_ACCESS_RECHECK_MS", "300");
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab");
    Docsd::Options docsdOptions;
    docsdOptions.env = env;
    docsdOptions.dataDir = dataDir_;
    docsdOptions.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(docsdOptions);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  void setUpProject() {
    alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
    bob_ = docs::test::signInByEmail(*docsd_, "bob@example.com");
    carol_ = docs::test::signInByEmail(*docsd_, "carol@example.com");
    victor_ = docs::test::signInByEmail(*docsd_, "victor@example.com");
    mallory_ = docs::test::signInByEmail(*docsd_, "mallory@example.com");
    projectId_ = createProject(alice_, "Collab");
    pageId_ = project(alice_, projectId_)["default_page_id"].get<std::int64_t>();
    grant(projectId_, "bob@example.com", "write");
    grant(projectId_, "carol@example.com", "write");
    grant(projectId_, "victor@example.com", "read");
    room_ = std::to_string(projectId_) + "__" + std::to_string(pageId_);
  }
  std::int64_t createProject(const SignedIn& who, const std::string& name) {
    auto headers = who.bearer();
    headers["Content-Type"] = "application/json";
    auto r =
        httpRequest(docsd_->port(), "POST", "/api/project", json{{"name", name}, {"is_private", true}}.dump(), headers);
    EXPECT_TRUE(r.status == 200 || r.status == 201) << r.body;
    return json::parse(r.body)["id"].get<std::int64_t>();
  }
  json project(const SignedIn& who, std::int64_t id) {
    auto r = httpRequest(docsd_->port(), "GET", "/api/project?projectId=" + std::to_string(id), "", who.bearer());
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body, nullptr, false);
  }
  void grant(std::int64_t projectId, const std::string& email, const std::string& role) {
    auto headers = alice_.bearer();
    headers["Content-Type"] = "application/json";
    auto r = httpRequest(docsd_->port(), "POST", "/api/rbac/project",
                         json{{"project_id", projectId}, {"email", email}, {"role", role}}.dump(), headers);
    ASSERT_TRUE(r.status == 200 || r.status == 201) << r.body;
  }
  json run(json spec) {
    spec["url"] = "ws://127.0.0.1:" + std::to_string(docsd_->port()) + "/collaboration";
    spec["api"] = "http://127.0.0.1:" + std::to_string(docsd_->port());
    if (!spec.contains("room")) spec["room"] = room_;
    auto [code, output] = docs::test::runCommand({"node", scenarioScript(), spec.dump()});
    auto lastLine = output.substr(output.rfind('{') == std::string::npos ? 0 : output.rfind("\n{") + 1);
    json result = json::parse(lastLine, nullptr, false);
    EXPECT_EQ(code, 0) << output;
    return result.is_discarded() ? json{{"error", output}} : result;
  }
  // Another node: a second docsd on the same database with these settings (not started).
  Docsd& makeOtherNode(std::map<std::string, std::string> env) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab");
    Docsd::Options otherNodeOptions;
    otherNodeOptions.env = env;
    otherNodeOptions.dataDir = otherNodeData_.path();
    otherNodeOptions.databaseUrl = database_.url();
    otherNode_ = std::make_unique<Docsd>(otherNodeOptions);
    return *otherNode_;
  }
  static std::string collabUrl(const Docsd& node) {
    return "ws://127.0.0.1:" + std::to_string(node.port()) + "/collaboration";
  }
  // The page's stored content (REST), as text.
  std::string storedText() {
    auto r =
        httpRequest(docsd_->port(), "GET", "/api/page/" + std::to_string(pageId_) + "/content", "", alice_.bearer());
    if (r.status == 404) return "";
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body)["content_bytea"].get<std::string>();
  }
  std::string sql(const std::string& query) { return docs::test::sqlValue(database_.url(), query); }

  docs::test::TestDatabase database_;
  docs::test::TempDir dataDirHolder_;
  std::string dataDir_ = dataDirHolder_.path();
  std::unique_ptr<Docsd> docsd_;
  docs::test::TempDir otherNodeData_;
  std::unique_ptr<Docsd> otherNode_;
  SignedIn alice_, bob_, carol_, victor_, mallory_;
  std::int64_t projectId_ = 0, pageId_ = 0;
  std::string room_;
};

int countOf(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_F(CollabTest, WritersConvergeLateJoinersCatchUpAndAwarenessIsShared) {
  start();
  setUpProject();
  auto result = run({{"scenario", "converge"}, {"tokens", {bob_.token, carol_.token, victor_.token}}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["scopeA"], "read-write");
  EXPECT_EQ(result["a"], result["b"]);
  EXPECT_EQ(result["a"], result["c"]);  // the late joiner (a viewer) received everything
  EXPECT_EQ(result["paragraphs"], 51);
  EXPECT_EQ(countOf(result["a"], "<paragraph>A"), 25);
  EXPECT_EQ(countOf(result["a"], "<paragraph>B"), 25);
  EXPECT_TRUE(result["awarenessSeen"].get<bool>());
  // Everything acknowledged is in the log or the content; a fresh reader sees it all.
  auto read = run({{"scenario", "read"}, {"tokens", {alice_.token}}});
  EXPECT_EQ(read["xml"], result["a"]);
}

TEST_F(CollabTest, ViewersAreReadOnlyAndTheirEditsAreNeverStored) {
  start();
  setUpProject();
  auto result = run({{"scenario", "viewer"}, {"tokens", {bob_.token, victor_.token}}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["scope"], "readonly");
  EXPECT_GT(result["unsynced"].get<int>(), 0);  // never acknowledged
  EXPECT_FALSE(result["writerSawIt"].get<bool>());
  EXPECT_EQ(result["stored"].get<std::string>().find("viewer edit"), std::string::npos);
  EXPECT_EQ(sql("SELECT count(*) FROM page_log"), "0");
}

TEST_F(CollabTest, BadTokensStrangersAndForeignRoomsAreDenied) {
  start();
  setUpProject();
  auto otherProject = createProject(mallory_, "Mallory's");
  auto otherPage = project(mallory_, otherProject)["default_page_id"].get<std::int64_t>();
  std::string forged = bob_.token.substr(0, bob_.token.rfind('.') + 1) + "AAAA";
  // Bob's claims signed with the real key (read from the database, as only the server
  // could) but meant for another audience, or from another issuer: the socket checks
  // iss and aud as every other door does.
  auto firstDot = bob_.token.find('.'), lastDot = bob_.token.rfind('.');
  auto claims = json::parse(*docs::codec::base64UrlDecode(bob_.token.substr(firstDot + 1, lastDot - firstDot - 1)));
  std::string key =
      *docs::codec::base64Decode(sql("SELECT private_key FROM auth_signing_keys ORDER BY created_at DESC LIMIT 1"));
  std::string kid = sql("SELECT kid FROM auth_signing_keys ORDER BY created_at DESC LIMIT 1");
  json foreignAudience = claims, foreignIssuer = claims;
  foreignAudience["aud"] = "another-service";
  foreignIssuer["iss"] = "https://other.example.com";
  json spec = {{"scenario", "denied"},
               {"cases",
                {{"garbage", "not-a-token"},
                 {"forged", forged},
                 {"stranger", mallory_.token},
                 {"otherAudience", docs_auth::signJwt(foreignAudience, kid, key)},
                 {"otherIssuer", docs_auth::signJwt(foreignIssuer, kid, key)},
                 {"pageOfAnotherProject", bob_.token},
                 {"badName", bob_.token},
                 {"writer", bob_.token}}},
               {"rooms",
                {{"pageOfAnotherProject", std::to_string(projectId_) + "__" + std::to_string(otherPage)},
                 {"badName", "not-a-room"}}}};
  auto result = run(spec);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_TRUE(result["garbage"].contains("denied")) << result.dump();
  EXPECT_TRUE(result["forged"].contains("denied"));
  EXPECT_TRUE(result["otherAudience"].contains("denied")) << result.dump();
  EXPECT_TRUE(result["otherIssuer"].contains("denied"));
  EXPECT_TRUE(result["stranger"].contains("denied"));
  EXPECT_TRUE(result["pageOfAnotherProject"].contains("denied"));
  EXPECT_TRUE(result["badName"].contains("denied"));
  EXPECT_EQ(result["writer"]["scope"], "read-write");
  // A signed-out session's token is refused too.
  auto out = httpRequest(docsd_->port(), "POST", "/api/auth/sign-out", "{}",
                         {{"Authorization", "Bearer " + carol_.token}, {"Content-Type", "application/json"}});
  ASSERT_EQ(out.status, 200);
  auto after = run({{"scenario", "denied"}, {"cases", {{"signedOut", carol_.token}}}});
  EXPECT_TRUE(after["signedOut"].contains("denied")) << after.dump();
}

TEST_F(CollabTest, AWriterDemotedWhileConnectedCanNoLongerWrite) {
  start();
  setUpProject();
  auto result = run({{"scenario", "demote"},
                     {"tokens", {bob_.token}},
                     {"adminToken", alice_.token},
                     {"projectId", projectId_},
                     {"email", "bob@example.com"}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["demoteStatus"], 200);
  EXPECT_EQ(result["scope"], "readonly");
  EXPECT_GT(result["unsynced"].get<int>(), 0);
  std::string stored = result["stored"];
  EXPECT_NE(stored.find("before demotion"), std::string::npos) << stored;
  EXPECT_EQ(stored.find("after demotion"), std::string::npos) << stored;
}

TEST_F(CollabTest, SignOutAndRemovalReachOpenConnections) {
  start();
  setUpProject();
  auto result = run({{"scenario", "revocations"},
                     {"tokens", {bob_.token, victor_.token}},
                     {"adminToken", alice_.token},
                     {"projectId", projectId_},
                     {"viewerEmail", "victor@example.com"}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["signOutStatus"], 200);
  ASSERT_FALSE(result["writerCloseCodes"].empty()) << result.dump();
  EXPECT_EQ(result["writerCloseCodes"][0], 4401);
  EXPECT_EQ(result["removeStatus"], 200);
  EXPECT_TRUE(result["viewerDenied"].is_string()) << result.dump();
}

TEST_F(CollabTest, RestReadsAndWritesMeetTheLiveDocument) {
  start({{"DOCS_COLLAB_COMPACT_DEBOUNCE_MS", "60000"}, {"DOCS_COLLAB_COMPACT_MAX_DELAY_MS", "60000"}});
  setUpProject();
  auto result = run({{"scenario", "rest"}, {"tokens", {bob_.token}}, {"pageId", pageId_}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["exportStatus"], 200);
  EXPECT_NE(result["markdown"].get<std::string>().find("live text"), std::string::npos)
      << result.dump();  // not yet folded
  EXPECT_EQ(result["putStatus"], 200) << result.dump();
  EXPECT_EQ(result["putBody"]["merged"], true);
  EXPECT_NE(result["live"].get<std::string>().find("from rest"), std::string::npos) << result.dump();
  EXPECT_NE(result["live"].get<std::string>().find("live text"), std::string::npos)
      << result.dump();  // merged, not replaced
}

TEST_F(CollabTest, SocketsPerUserAreLimited) {
  start({{"DOCS_COLLAB_MAX_CONNECTIONS_PER_USER", "2"}});
  setUpProject();
  auto result = run({{"scenario", "limits"}, {"tokens", {bob_.token}}, {"sockets", 3}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["answers"][0], "read-write");
  EXPECT_EQ(result["answers"][1], "read-write");
  EXPECT_EQ(result["answers"][2], "denied: Too many connections");
}

TEST_F(CollabTest, HostileFramesCloseOnlyTheirOwnConnection) {
  start({{"DOCS_COLLAB_MAX_MESSAGE_BYTES", "65536"},
         {"DOCS_COLLAB_MESSAGE_BURST", "50"},
         {"DOCS_COLLAB_MESSAGES_PER_SECOND", "10"}});
  setUpProject();
  auto otherProject = createProject(mallory_, "Mallory's");
  auto otherPage = project(mallory_, otherProject)["default_page_id"].get<std::int64_t>();
  auto result = run({{"scenario", "hostile"},
                     {"tokens", {bob_.token}},
                     {"oversize", 100000},
                     {"flood", 200},
                     {"otherRoom", std::to_string(otherProject) + "__" + std::to_string(otherPage)}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  auto& cases = result["results"];
  for (const char* name : {"truncated", "bogusVarint", "undecodableUpdate", "unknownType", "textFrame"}) {
    EXPECT_EQ(cases[name]["closed"], 1007) << name << ": " << cases[name].dump();
    EXPECT_FALSE(cases[name]["reason"].get<std::string>().empty()) << name;
  }
  EXPECT_EQ(cases["oversized"]["closed"], 1009) << cases["oversized"].dump();
  EXPECT_EQ(cases["flood"]["closed"], 1008) << cases["flood"].dump();
  // Another project's room: Auth/PermissionDenied for that document; the socket stays open.
  std::string otherRoom = std::to_string(otherProject) + "__" + std::to_string(otherPage);
  std::string expected;
  char hex[3];
  std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(otherRoom.size()));
  expected += hex;
  for (unsigned char c : otherRoom) {
    std::snprintf(hex, sizeof hex, "%02x", c);
    expected += hex;
  }
  expected += "0201";
  ASSERT_FALSE(cases["otherProject"]["messages"].empty()) << cases["otherProject"].dump();
  EXPECT_EQ(cases["otherProject"]["messages"][0].get<std::string>().rfind(expected, 0), 0u)
      << cases["otherProject"].dump();
  EXPECT_EQ(cases["otherProject"]["closed"], 1000) << cases["otherProject"].dump();  // the client's own close, echoed
  std::string stored = result["stored"];
  EXPECT_NE(stored.find("kept"), std::string::npos);
  EXPECT_NE(stored.find("still working"), std::string::npos);
  EXPECT_EQ(countOf(stored, "<paragraph>"), 2) << stored;  // nothing hostile got in
  EXPECT_EQ(sql("SELECT count(*) FROM page_log WHERE page_id = " + std::to_string(otherPage)), "0");
}

// kill -9 at random moments while a client edits; after a restart every acknowledged
// edit is there and every log row decodes. DOCS_TEST_COLLAB_CRASHES sets the runs.
TEST_F(CollabTest, KillNineLosesNoAcknowledgedEdit) {
  int runs = 3;
  if (const char* value = std::getenv("DOCS_TEST_COLLAB_CRASHES")) runs = std::max(1, std::atoi(value));
  start();
  setUpProject();
  std::mt19937 random(std::random_device{}());
  std::set<std::string> acked;
  for (int runIndex = 0; runIndex < runs; ++runIndex) {
    std::string ackFile = dataDir_ + "/acked-" + std::to_string(runIndex);
    json spec = {{"scenario", "edits"}, {"tokens", {bob_.token}},
                 {"count", 100000},     {"prefix", "run" + std::to_string(runIndex) + "-edit"},
                 {"ackFile", ackFile},  {"url", "ws://127.0.0.1:" + std::to_string(docsd_->port()) + "/collaboration"},
                 {"room", room_}};
    pid_t child = fork();
    if (child == 0) {
      execlp("node", "node", scenarioScript().c_str(), spec.dump().c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500 + random() % 2000));
    docsd_->kill9();
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    std::ifstream in(ackFile);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) acked.insert(line);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    // Tokens live on: the sessions are in the database.
  }
  ASSERT_GT(acked.size(), 0u) << "no edit was acknowledged before the kills";
  // Every log row holds well-formed updates: one as is, or update_count packed side by
  // side as lib0 byte arrays.
  PGconn* connection = PQconnectdb(database_.url().c_str());
  PGresult* rows = PQexecParams(connection, "SELECT update, update_count::text FROM page_log", 0, nullptr, nullptr,
                                nullptr, nullptr, 1);
  ASSERT_EQ(PQresultStatus(rows), PGRES_TUPLES_OK);
  for (int i = 0; i < PQntuples(rows); ++i) {
    std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(PQgetvalue(rows, i, 0)),
                                        static_cast<std::size_t>(PQgetlength(rows, i, 0)));
    std::string countText(PQgetvalue(rows, i, 1), static_cast<std::size_t>(PQgetlength(rows, i, 1)));
    if (countText == "1") {
      EXPECT_NO_THROW(docs::ydoc::decodeUpdate(bytes)) << "log row " << i;
      continue;
    }
    std::size_t found = 0;
    EXPECT_NO_THROW({
      docs::ydoc::Decoder packed(bytes);
      while (packed.hasContent()) {
        docs::ydoc::decodeUpdate(packed.readVarUint8Array());
        ++found;
      }
    }) << "log row "
       << i;
    EXPECT_EQ(std::to_string(found), countText) << "log row " << i;
  }
  PQclear(rows);
  PQfinish(connection);
  auto read = run({{"scenario", "read"}, {"tokens", {alice_.token}}});
  ASSERT_TRUE(read.contains("xml") && read["xml"].is_string()) << read.dump() << "\n" << docsd_->log();
  std::string xml = read["xml"];
  for (const auto& edit : acked) EXPECT_NE(xml.find("<paragraph>" + edit + "</paragraph>"), std::string::npos) << edit;
}

TEST_F(CollabTest, TwoNodesRelayEditsAndPresenceLive) {
  // Compaction is a minute away: what crosses between the nodes is the relay alone.
  std::map<std::string, std::string> slow = {{"DOCS_COLLAB_COMPACT_DEBOUNCE_MS", "60000"},
                                             {"DOCS_COLLAB_COMPACT_MAX_DELAY_MS", "120000"}};
  start(slow);
  setUpProject();
  Docsd& other = makeOtherNode(slow);
  ASSERT_TRUE(other.start()) << other.log();
  auto result = run({{"scenario", "relay"},
                     {"tokens", {bob_.token, carol_.token}},
                     {"urls", {collabUrl(*docsd_), collabUrl(other)}},
                     {"rounds", 5},
                     {"timeoutMs", 5000}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_TRUE(result["missed"].empty()) << result.dump();
  std::cout << "relay ms, A to B: " << result["aToB"].dump() << ", B to A: " << result["bToA"].dump() << "\n";
  EXPECT_EQ(result["aToB"].size(), 5u) << result.dump();
  EXPECT_EQ(result["bToA"].size(), 5u) << result.dump();
  auto has = [](const json& list, const std::string& name) {
    for (const auto& item : list)
      if (item == name) return true;
    return false;
  };
  EXPECT_TRUE(has(result["namesAtB"], "Editor on A")) << result.dump();
  EXPECT_TRUE(has(result["namesAtA"], "Editor on B")) << result.dump();
  EXPECT_FALSE(has(result["namesAtBAfterALeft"], "Editor on A")) << result.dump();
  // Each node stored its editor's updates and timed the other's relayed ones (GET /metrics,
  // loopback; the text format is checked with a real parser in tests/integration).
  for (Docsd* node : {docsd_.get(), &other}) {
    auto metrics = httpRequest(node->port(), "GET", "/metrics", "", {});
    ASSERT_EQ(metrics.status, 200);
    EXPECT_GE(metricValue(metrics.body, "docsd_collab_updates_applied_total"), 5) << metrics.body;
    EXPECT_GE(metricValue(metrics.body, "docsd_collab_commit_batch_updates_count"), 1) << metrics.body;
    EXPECT_GE(metricValue(metrics.body, "docsd_collab_commit_seconds_count"), 1) << metrics.body;
    // The first edit may cross as the catch-up a node reads when it learns of its peer (untimed).
    EXPECT_GE(metricValue(metrics.body, "docsd_collab_relay_lag_seconds_count"), 1) << metrics.body;
    EXPECT_GE(metricValue(metrics.body, "docsd_collab_relay_lag_seconds_bucket{le=\"1\"}"), 1) << metrics.body;
  }
  EXPECT_EQ(other.terminate(), 0);
}

// Two nodes share one database (a load balancer without sticky sessions): two writers of
// one page, one on each node. Each node logs only its own writer's updates and keeps only
// those in memory, so a compactor that overwrote the content with its own state would
// lose the other node's acknowledged edits. Compaction merges instead, and hands the
// other node's edits to its own editors.
TEST_F(CollabTest, TwoNodesEditingOnePageLoseNothingAndConverge) {
  std::map<std::string, std::string> fast = {{"DOCS_COLLAB_COMPACT_DEBOUNCE_MS", "300"},
                                             {"DOCS_COLLAB_COMPACT_MAX_DELAY_MS", "600"}};
  start(fast);
  setUpProject();
  auto env = fast;
  env.emplace("DOCS_COLLAB_ACCESS_RECHECK_MS", "300");
  Docsd& other = makeOtherNode(env);
  ASSERT_TRUE(other.start()) << other.log();
  auto result = run({{"scenario", "twoNodes"},
                     {"tokens", {bob_.token, carol_.token}},
                     {"urls", {collabUrl(*docsd_), collabUrl(other)}},
                     {"rounds", 6},
                     {"pauseMs", 400},
                     {"timeoutMs", 20000}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
  // Each writer ends up with the other node's edits (handed over at compaction).
  EXPECT_TRUE(result["seenAtA"].get<bool>()) << result.dump();
  EXPECT_TRUE(result["seenAtB"].get<bool>()) << result.dump();
  // Both nodes stop (folding what they hold); a fresh reader finds every acknowledged edit.
  EXPECT_EQ(other.terminate(), 0);
  EXPECT_EQ(docsd_->terminate(), 0);
  start(fast);
  auto read = run({{"scenario", "read"}, {"tokens", {alice_.token}}});
  std::string xml = read["xml"];
  for (int i = 0; i < 6; ++i) {
    EXPECT_NE(xml.find("<paragraph>node A " + std::to_string(i) + "</paragraph>"), std::string::npos)
        << i << " " << xml;
    EXPECT_NE(xml.find("<paragraph>node B " + std::to_string(i) + "</paragraph>"), std::string::npos)
        << i << " " << xml;
  }
  EXPECT_EQ(sql("SELECT count(*) FROM page_log"), "0");  // all folded
}

namespace {

// A Yjs update adding one paragraph to an empty document, as hex for SQL.
std::string paragraphUpdateHex(const std::string& text, std::uint64_t client) {
  docs::ydoc::Doc doc(client);
  docs::ydoc::appendProseMirrorJson(
      doc,
      {{"type", "doc"}, {"content", {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}}}}});
  auto update = doc.encodeStateAsUpdate();
  return docs::codec::hexEncode(std::string_view(reinterpret_cast<const char*>(update.data()), update.size()));
}

std::string markdownOfBase64(const std::string& encoded) {
  auto bytes = docs::codec::base64Decode(encoded);
  if (!bytes || bytes->empty()) return "";
  docs::ydoc::Doc doc;
  doc.applyUpdate(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()));
  return docs::ydoc::toMarkdown(docs::ydoc::toProseMirrorJson(doc));
}

}  // namespace

// A page's document is read from storage (content and log, the pages plugin's), never
// through a room: reading a page nobody has open loads no room and tells no other node.
TEST_F(CollabTest, ReadingAPageNobodyHasOpenOpensNoRoomAndSeesItsUnfoldedEdits) {
  start();
  setUpProject();
  // Another node's editor wrote this and the node died before folding it.
  sql("INSERT INTO page_log (page_id, update, node) VALUES (" + std::to_string(pageId_) + ", '\\x" +
      paragraphUpdateHex("written on a node that died", 77) + "'::bytea, 'gone')");
  EXPECT_NE(markdownOfBase64(storedText()).find("written on a node that died"), std::string::npos);
  auto exported = httpRequest(docsd_->port(), "GET", "/api/page/" + std::to_string(pageId_) + "/export?format=md", "",
                              alice_.bearer());
  EXPECT_NE(exported.body.find("written on a node that died"), std::string::npos) << exported.body;
  auto metrics = httpRequest(docsd_->port(), "GET", "/metrics", "", {});
  EXPECT_EQ(metricValue(metrics.body, "docsd_collab_rooms_open"), 0) << metrics.body;
  // Still only in the log: the reads stored nothing.
  EXPECT_EQ(sql("SELECT count(*) FROM page_log WHERE page_id = " + std::to_string(pageId_)), "1");
}

// The update log moved from collab's page_updates to pages' page_log: a database of the
// previous release keeps its unfolded edits (same ids), and the sequence goes on after them.
TEST_F(CollabTest, AnUpgradeMovesTheUnfoldedLogAndLosesNothing) {
  start();
  setUpProject();
  ASSERT_EQ(docsd_->terminate(), 0) << docsd_->log();
  // The previous release's schema: page_updates (collab 0001-0004) with two unfolded rows
  // (one of them packed from two updates would need lib0 framing; plain rows suffice).
  sql("DROP TABLE page_log;"
      " DELETE FROM schema_migrations WHERE (owner = 'pages' AND version = 2) OR (owner = 'collab' AND version = 5);"
      " CREATE TABLE page_updates (id bigserial PRIMARY KEY, page_id bigint NOT NULL, update bytea NOT NULL,"
      "   user_id bigint, created_at timestamptz NOT NULL DEFAULT now(), node text NOT NULL DEFAULT '',"
      "   update_count integer NOT NULL DEFAULT 1 CHECK (update_count >= 1));"
      " INSERT INTO page_updates (id, page_id, update, user_id, node) VALUES"
      " (41, " +
      std::to_string(pageId_) + ", '\\x" + paragraphUpdateHex("first unfolded edit", 81) +
      "'::bytea, NULL, 'old'),"
      " (42, " +
      std::to_string(pageId_) + ", '\\x" + paragraphUpdateHex("second unfolded edit", 82) + "'::bytea, NULL, 'old');");
  start();
  EXPECT_EQ(sql("SELECT coalesce(to_regclass('page_updates')::text, 'none')"), "none");
  auto markdown = markdownOfBase64(storedText());
  EXPECT_NE(markdown.find("first unfolded edit"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("second unfolded edit"), std::string::npos) << markdown;
  // Rows the fold has not reached yet kept their ids; new rows come after them.
  sql("INSERT INTO page_log (page_id, update, node) VALUES (" + std::to_string(pageId_) + ", '\\x" +
      paragraphUpdateHex("after the upgrade", 83) + "'::bytea, 'new')");
  EXPECT_GT(std::stoll(sql("SELECT max(id) FROM page_log")), 42);
  EXPECT_NE(markdownOfBase64(storedText()).find("after the upgrade"), std::string::npos);
}

// Collab enabled on a database where pages already keeps the log: collab's own old
// migrations make page_updates, and its last one drops it again (empty).
TEST_F(CollabTest, CollabEnabledLaterLeavesNoSecondLog) {
  start({{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages"}});
  EXPECT_EQ(sql("SELECT coalesce(to_regclass('page_updates')::text, 'none')"), "none");
  EXPECT_EQ(sql("SELECT to_regclass('page_log')::text"), "page_log");
  ASSERT_EQ(docsd_->terminate(), 0) << docsd_->log();
  start();
  EXPECT_EQ(sql("SELECT coalesce(to_regclass('page_updates')::text, 'none')"), "none");
  EXPECT_EQ(sql("SELECT count(*) FROM schema_migrations WHERE owner = 'collab'"), "5");
  setUpProject();
  auto result = run({{"scenario", "converge"}, {"tokens", {bob_.token, carol_.token, victor_.token}}});
  ASSERT_FALSE(result.contains("error")) << result.dump();
}
