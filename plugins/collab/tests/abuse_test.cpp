// Abuse of the /collaboration socket against the real docsd (issue 22, item 6): sockets
// that never authenticate, big frames before authentication, peers that stop answering
// pings, readers that never read, and presence (awareness) set for other people's client
// ids or too large. Frames are built by hand (docs/collab-protocol.md); every wait is for
// a state the server reaches, bounded by a generous timeout.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <tuple>

#include <docs/ydoc/lib0.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::SignedIn;
using docs::test::WsClient;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

using Bytes = std::vector<std::uint8_t>;

// Peak-RSS bounds on docsd: under ThreadSanitizer its shadow memory multiplies every
// allocation, so the bounds grow by this factor there (they still catch what they guard:
// a frame or a queue held whole).
#if defined(__SANITIZE_THREAD__)
constexpr long kRssFactor = 4;
#else
constexpr long kRssFactor = 1;
#endif

std::string text(const Bytes& bytes) { return {bytes.begin(), bytes.end()}; }

std::string frame(const std::string& address, std::uint64_t type, const Bytes& payload) {
  docs::ydoc::Encoder enc;
  enc.writeVarString(address);
  enc.writeVarUint(type);
  enc.writeRaw(payload);
  return text(enc.take());
}

std::string authFrame(const std::string& address, const std::string& token) {
  docs::ydoc::Encoder enc;
  enc.writeVarUint(0);  // Token
  enc.writeVarString(token);
  return frame(address, 2, enc.take());
}

// SyncStep1 with an empty state vector: "send me the whole document".
std::string syncStep1Frame(const std::string& address) {
  docs::ydoc::Encoder enc;
  enc.writeVarUint(0);
  enc.writeVarUint8Array(Bytes{0});
  return frame(address, 0, enc.take());
}

std::string updateFrame(const std::string& address, const Bytes& update) {
  docs::ydoc::Encoder enc;
  enc.writeVarUint(2);  // Update
  enc.writeVarUint8Array(update);
  return frame(address, 0, enc.take());
}

using AwarenessEntry = std::tuple<std::uint64_t, std::uint64_t, std::string>;  // client, clock, state

std::string awarenessFrame(const std::string& address, const std::vector<AwarenessEntry>& entries) {
  docs::ydoc::Encoder update;
  update.writeVarUint(entries.size());
  for (const auto& [client, clock, state] : entries) {
    update.writeVarUint(client);
    update.writeVarUint(clock);
    update.writeVarString(state);
  }
  docs::ydoc::Encoder enc;
  enc.writeVarUint8Array(update.bytes());
  return frame(address, 1, enc.take());
}

// One server message: its type and payload, or the close code.
struct Message {
  std::uint64_t type = 0;
  std::string payload;
  int closeCode = 0;  // set when the server closed (-1: without a close frame)
};

// The next Hocuspocus message; pings are answered unless `answerPings` is false.
Message next(WsClient& client, bool answerPings = true, std::chrono::milliseconds timeout = 20s) {
  for (;;) {
    auto got = client.receive(timeout);
    if (!got) return {0, "", -1};
    if (got->opcode == 9) {
      if (answerPings) client.send(10, got->payload);
      continue;
    }
    if (got->opcode == 8) {
      int code = got->payload.size() >= 2
                     ? (static_cast<unsigned char>(got->payload[0]) << 8) | static_cast<unsigned char>(got->payload[1])
                     : 1005;
      return {0, got->payload.size() > 2 ? got->payload.substr(2) : "", code};
    }
    if (got->opcode != 2) continue;
    Bytes bytes(got->payload.begin(), got->payload.end());
    docs::ydoc::Decoder dec(bytes);
    dec.readVarString();
    Message message;
    message.type = dec.readVarUint();
    auto rest = dec.readBytes(dec.remaining());
    message.payload.assign(rest.begin(), rest.end());
    return message;
  }
}

// The next message of a type (others skipped); a close ends the wait.
Message nextOfType(WsClient& client, std::uint64_t type) {
  for (;;) {
    auto message = next(client);
    if (message.closeCode != 0 || message.type == type) return message;
  }
}

std::vector<AwarenessEntry> awarenessEntries(const Message& message) {
  Bytes bytes(message.payload.begin(), message.payload.end());
  docs::ydoc::Decoder outer(bytes);
  auto update = outer.readVarUint8Array();
  docs::ydoc::Decoder dec(update);
  std::vector<AwarenessEntry> entries;
  auto count = dec.readVarUint();
  for (std::uint64_t i = 0; i < count; ++i) {
    auto client = dec.readVarUint();
    auto clock = dec.readVarUint();
    entries.emplace_back(client, clock, dec.readVarString());
  }
  return entries;
}

class CollabAbuseTest : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab");
    env.emplace("DOCS_LOG_ACCESS", "false");
    Docsd::Options docsdOptions;
    docsdOptions.env = env;
    docsdOptions.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(docsdOptions);
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
    alice_ = docs::test::signInByEmail(*docsd_, "alice@example.com");
    bob_ = docs::test::signInByEmail(*docsd_, "bob@example.com");
    auto headers = alice_.bearer();
    headers["Content-Type"] = "application/json";
    auto created = httpRequest(docsd_->port(), "POST", "/api/project",
                               json{{"name", "Abuse"}, {"is_private", true}}.dump(), headers);
    ASSERT_TRUE(created.status == 200 || created.status == 201) << created.body;
    auto projectId = json::parse(created.body)["id"].get<std::int64_t>();
    auto project =
        httpRequest(docsd_->port(), "GET", "/api/project?projectId=" + std::to_string(projectId), "", alice_.bearer());
    ASSERT_EQ(project.status, 200) << project.body;
    auto pageId = json::parse(project.body)["default_page_id"].get<std::int64_t>();
    auto granted =
        httpRequest(docsd_->port(), "POST", "/api/rbac/project",
                    json{{"project_id", projectId}, {"email", "bob@example.com"}, {"role", "write"}}.dump(), headers);
    ASSERT_TRUE(granted.status == 200 || granted.status == 201) << granted.body;
    room_ = std::to_string(projectId) + "__" + std::to_string(pageId);
  }

  // A socket on the room, authenticated as `who` (Authenticated answered).
  void join(WsClient& client, const SignedIn& who) {
    ASSERT_TRUE(client.connect(docsd_->port(), "/collaboration"));
    ASSERT_TRUE(client.sendBinary(authFrame(room_, who.token)));
    auto answer = nextOfType(client, 2);
    ASSERT_EQ(answer.closeCode, 0);
    ASSERT_FALSE(answer.payload.empty());
    ASSERT_EQ(answer.payload[0], 2) << "not Authenticated";
  }

  long status(const char* field) const { return docs::test::procStatusField(docsd_->pid(), field); }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
  SignedIn alice_, bob_;
  std::string room_;
};

// A paragraph of `size` letters as a Yjs update.
Bytes bigDocument(std::size_t size) {
  json doc = {
      {"type", "doc"},
      {"content", json::array({{{"type", "paragraph"},
                                {"content", json::array({{{"type", "text"}, {"text", std::string(size, 'x')}}})}}})}};
  return docs::ydoc::proseMirrorJsonToUpdate(doc, 4242);
}

}  // namespace

TEST_F(CollabAbuseTest, SocketsThatNeverAuthenticateAreClosedAtTheDeadline) {
  start({{"DOCS_COLLAB_AUTH_DEADLINE_MS", "1500"}});
  WsClient member;
  join(member, alice_);
  // Opened after the member authenticated: their deadlines come later than its own.
  WsClient silent, badToken;
  ASSERT_TRUE(silent.connect(docsd_->port(), "/collaboration"));
  ASSERT_TRUE(badToken.connect(docsd_->port(), "/collaboration"));
  ASSERT_TRUE(badToken.sendBinary(authFrame(room_, "not-a-token")));
  auto denied = nextOfType(badToken, 2);
  ASSERT_EQ(denied.closeCode, 0);
  EXPECT_EQ(denied.payload[0], 1) << "PermissionDenied";
  auto closedSilent = next(silent);
  EXPECT_EQ(closedSilent.closeCode, 1008) << closedSilent.payload;
  EXPECT_EQ(closedSilent.payload, "Authentication timeout");
  EXPECT_EQ(next(badToken).closeCode, 1008);
  EXPECT_TRUE(silent.waitForEof(10s));
  // The member is past its own deadline and still served.
  ASSERT_TRUE(member.sendBinary(syncStep1Frame(room_)));
  auto answer = nextOfType(member, 0);
  EXPECT_EQ(answer.closeCode, 0);
}

TEST_F(CollabAbuseTest, ABigFrameBeforeAuthenticationIsRefusedAndNotHeld) {
  start({{"DOCS_COLLAB_MAX_UNAUTHENTICATED_FRAME_BYTES", "4096"}});
  long before = status("VmHWM");
  ASSERT_GT(before, 0);
  // 8 MiB announced (the limit after authentication) and sent: refused from the header.
  WsClient early;
  ASSERT_TRUE(early.connect(docsd_->port(), "/collaboration"));
  std::string header(
      "\x82\xFF\x00\x00\x00\x00\x00\x7F\xFF\x00"
      "mask",
      14);
  ASSERT_TRUE(early.sendRaw(header));
  auto closed = next(early);
  EXPECT_EQ(closed.closeCode, 1009) << closed.payload;
  std::string chunk(1 << 20, 'z');
  for (int i = 0; i < 8; ++i)
    if (::send(early.fd(), chunk.data(), chunk.size(), MSG_NOSIGNAL) <= 0) break;
  early.close();
  // The server held none of it.
  long after = status("VmHWM");
  EXPECT_LT(after - before, 6 * 1024 * kRssFactor) << "peak RSS grew from " << before << " to " << after << " KiB";
  // A socket with a valid token may send large messages.
  WsClient member;
  join(member, alice_);
  ASSERT_TRUE(member.sendBinary(updateFrame(room_, bigDocument(100000))));
  auto stored = nextOfType(member, 8);  // SyncStatus after the commit
  ASSERT_EQ(stored.closeCode, 0);
  EXPECT_EQ(stored.payload, std::string(1, '\x01'));
}

TEST_F(CollabAbuseTest, AClientThatStopsAnsweringPingsIsClosed) {
  start({{"DOCS_COLLAB_PING_INTERVAL_MS", "800"}});
  WsClient member;
  join(member, alice_);
  // Pings are answered (by next()) for a while: the socket stays.
  for (int pings = 0; pings < 3;) {
    auto got = member.receive(20s);
    ASSERT_TRUE(got);
    if (got->opcode != 9) continue;
    ASSERT_TRUE(member.send(10, got->payload));
    ++pings;
  }
  // Then silence.
  auto closed = next(member, false);
  EXPECT_EQ(closed.closeCode, 1008) << closed.payload;
  EXPECT_EQ(closed.payload, "No answer to ping");
}

TEST_F(CollabAbuseTest, AReaderThatNeverReadsIsClosedWithItsQueueBounded) {
  start({{"DOCS_COLLAB_MAX_SEND_QUEUE_BYTES", "262144"}, {"DOCS_COLLAB_CLOSE_TIMEOUT_MS", "500"}});
  WsClient writer;
  join(writer, alice_);
  ASSERT_TRUE(writer.sendBinary(updateFrame(room_, bigDocument(300000))));
  ASSERT_EQ(nextOfType(writer, 8).closeCode, 0);
  long before = status("VmHWM");
  // 600 requests for the whole 300 KB document (180 MB of answers), never reading one.
  WsClient reader;
  join(reader, bob_);
  std::string request = syncStep1Frame(room_);
  std::string framed = docs::test::maskedFrame(2, request);
  int sent = 0;
  for (; sent < 600; ++sent)
    if (::send(reader.fd(), framed.data(), framed.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(framed.size())) break;
  // The server gives up on it: the connection is reset once the close frame cannot go out.
  bool reset = false;
  auto until = std::chrono::steady_clock::now() + 60s;
  while (!reset && std::chrono::steady_clock::now() < until) {
    pollfd p{reader.fd(), 0, 0};
    if (::poll(&p, 1, 200) > 0 && (p.revents & (POLLHUP | POLLERR))) reset = true;
  }
  EXPECT_TRUE(reset) << sent << " requests sent";
  long after = status("VmHWM");
  // Unbounded, the queue would hold 180 MB.
  EXPECT_LT(after - before, 64 * 1024 * kRssFactor) << "peak RSS grew from " << before << " to " << after << " KiB";
  // The writer is still served.
  ASSERT_TRUE(writer.sendBinary(syncStep1Frame(room_)));
  EXPECT_EQ(nextOfType(writer, 0).closeCode, 0);
}

TEST_F(CollabAbuseTest, AwarenessIsBoundToTheConnectionsOwnClientIds) {
  start({{"DOCS_COLLAB_MAX_AWARENESS_STATES", "2"}});
  WsClient alice, bob;
  join(alice, alice_);
  join(bob, bob_);
  // Bob announces his client id; Alice sees it.
  ASSERT_TRUE(bob.sendBinary(awarenessFrame(room_, {{2002, 1, R"({"user":"bob"})"}})));
  auto seen = nextOfType(alice, 1);
  ASSERT_EQ(seen.closeCode, 0);
  EXPECT_EQ(awarenessEntries(seen), (std::vector<AwarenessEntry>{{2002, 1, R"({"user":"bob"})"}}));
  // Alice writes a newer state for Bob's id: dropped. Then her own, and two more ids
  // (one past her allowance of two). Bob hears only what is hers and allowed.
  ASSERT_TRUE(alice.sendBinary(awarenessFrame(room_, {{2002, 9, R"({"user":"mallory"})"}})));
  ASSERT_TRUE(alice.sendBinary(awarenessFrame(room_, {{1001, 1, R"({"user":"alice"})"}})));
  ASSERT_TRUE(alice.sendBinary(awarenessFrame(room_, {{1002, 1, R"({"tab":2})"}, {1003, 1, R"({"tab":3})"}})));
  std::vector<std::vector<AwarenessEntry>> heard;
  while (heard.size() < 2) {
    auto message = nextOfType(bob, 1);
    ASSERT_EQ(message.closeCode, 0);
    auto entries = awarenessEntries(message);
    if (entries.size() == 1 && std::get<0>(entries[0]) == 2002 && std::get<1>(entries[0]) == 1)
      continue;  // his own echo
    heard.push_back(entries);
  }
  EXPECT_EQ(heard[0], (std::vector<AwarenessEntry>{{1001, 1, R"({"user":"alice"})"}}));
  EXPECT_EQ(heard[1], (std::vector<AwarenessEntry>{{1002, 1, R"({"tab":2})"}}));
  // What the room holds: Bob's own state, Alice's two.
  ASSERT_TRUE(bob.sendBinary(frame(room_, 3, {})));
  auto all = nextOfType(bob, 1);
  ASSERT_EQ(all.closeCode, 0);
  EXPECT_EQ(awarenessEntries(all),
            (std::vector<AwarenessEntry>{
                {1001, 1, R"({"user":"alice"})"}, {1002, 1, R"({"tab":2})"}, {2002, 1, R"({"user":"bob"})"}}));
  // Alice on a new socket (a reconnect before the old one is seen gone) takes her id along.
  WsClient again;
  join(again, alice_);
  ASSERT_TRUE(again.sendBinary(awarenessFrame(room_, {{1001, 2, R"({"user":"alice again"})"}})));
  for (;;) {
    auto message = nextOfType(bob, 1);
    ASSERT_EQ(message.closeCode, 0);
    auto entries = awarenessEntries(message);
    if (entries.size() == 1 && std::get<0>(entries[0]) == 1001) {
      EXPECT_EQ(std::get<2>(entries[0]), R"({"user":"alice again"})");
      break;
    }
  }
  // When Bob leaves, his id is free again and his state is removed for everyone.
  bob.close();
  for (;;) {
    auto message = nextOfType(alice, 1);
    ASSERT_EQ(message.closeCode, 0);
    auto entries = awarenessEntries(message);
    if (entries.size() == 1 && std::get<0>(entries[0]) == 2002 && std::get<2>(entries[0]) == "null") break;
  }
}

TEST_F(CollabAbuseTest, OversizedAwarenessIsRefused) {
  start({{"DOCS_COLLAB_MAX_AWARENESS_STATE_BYTES", "1024"}});
  WsClient alice, bob;
  join(alice, alice_);
  join(bob, bob_);
  std::string big = R"({"user":")" + std::string(2000, 'a') + R"("})";
  ASSERT_TRUE(alice.sendBinary(awarenessFrame(room_, {{1001, 1, big}})));
  ASSERT_TRUE(alice.sendBinary(awarenessFrame(room_, {{1001, 2, R"({"user":"alice"})"}})));
  // The first thing Bob hears is the small state; the socket that sent the big one stays.
  auto message = nextOfType(bob, 1);
  ASSERT_EQ(message.closeCode, 0);
  EXPECT_EQ(awarenessEntries(message), (std::vector<AwarenessEntry>{{1001, 2, R"({"user":"alice"})"}}));
  auto echo = nextOfType(alice, 1);
  ASSERT_EQ(echo.closeCode, 0);
  EXPECT_EQ(awarenessEntries(echo), (std::vector<AwarenessEntry>{{1001, 2, R"({"user":"alice"})"}}));
}

// The real provider (Node's ws answers ping frames by itself, as browsers do) authenticates
// within a short deadline and stays connected through many pings.
TEST_F(CollabAbuseTest, TheHocuspocusProviderMeetsTheDeadlineAndAnswersPings) {
  start({{"DOCS_COLLAB_PING_INTERVAL_MS", "200"}, {"DOCS_COLLAB_AUTH_DEADLINE_MS", "1000"}});
  docs::test::TempDir scratch;
  std::string ready = scratch.path() + "/ready";
  json spec = {{"scenario", "watchUntil"},
               {"tokens", {bob_.token}},
               {"text", "after the pings"},
               {"readyFile", ready},
               {"timeoutMs", 60000},
               {"room", room_},
               {"url", "ws://127.0.0.1:" + std::to_string(docsd_->port()) + "/collaboration"},
               {"api", "http://127.0.0.1:" + std::to_string(docsd_->port())}};
  std::pair<int, std::string> outcome;
  std::thread provider([&] {
    outcome = docs::test::runCommand({"node", docs::test::sourceDir() + "/tests/collab/scenario.cjs", spec.dump()});
  });
  for (int i = 0; i < 3000 && !std::filesystem::exists(ready); ++i) {
    pollfd none{-1, 0, 0};
    ::poll(&none, 0, 20);
  }
  // Eight pings here, after the provider connected: it has had at least as many, and its
  // deadline has passed.
  WsClient member;
  join(member, alice_);
  for (int pings = 0; pings < 8;) {
    auto got = member.receive(20s);
    ASSERT_TRUE(got);
    if (got->opcode != 9) continue;
    ASSERT_TRUE(member.send(10, got->payload));
    ++pings;
  }
  json paragraph = {
      {"type", "doc"},
      {"content", json::array({{{"type", "paragraph"},
                                {"content", json::array({{{"type", "text"}, {"text", "after the pings"}}})}}})}};
  ASSERT_TRUE(member.sendBinary(updateFrame(room_, docs::ydoc::proseMirrorJsonToUpdate(paragraph, 777))));
  provider.join();
  ASSERT_EQ(outcome.first, 0) << outcome.second;
  auto at = outcome.second.rfind("\n{");
  json result = json::parse(outcome.second.substr(at == std::string::npos ? 0 : at + 1), nullptr, false);
  ASSERT_FALSE(result.is_discarded()) << outcome.second;
  EXPECT_TRUE(result["seen"].get<bool>()) << result.dump();
  EXPECT_EQ(result["connects"], 1) << "the provider was disconnected: " << result.dump();
}
