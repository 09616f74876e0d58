// Comments reach everyone with the page open, at once and across nodes: two docsd
// processes share one database; a reader's collaboration socket on one node receives the
// Stateless news when a writer comments, replies or resolves through the other node.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include <docs/ydoc/lib0.hpp>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::SignedIn;
using docs::test::WsClient;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

std::string frame(const std::string& address, std::uint64_t type, const std::vector<std::uint8_t>& payload) {
  docs::ydoc::Encoder enc;
  enc.writeVarString(address);
  enc.writeVarUint(type);
  enc.writeRaw(payload);
  auto bytes = enc.take();
  return {bytes.begin(), bytes.end()};
}

std::string authFrame(const std::string& address, const std::string& token) {
  docs::ydoc::Encoder enc;
  enc.writeVarUint(0);  // Token
  enc.writeVarString(token);
  return frame(address, 2, enc.take());
}

struct Message {
  std::uint64_t type = 0;
  std::vector<std::uint8_t> payload;
  bool closed = false;
};

// The next message of `type` (pings answered, others skipped); closed on a close or timeout.
Message nextOfType(WsClient& client, std::uint64_t type, std::chrono::milliseconds timeout = 20s) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return {0, {}, true};
    auto got = client.receive(left);
    if (!got || got->opcode == 8) return {0, {}, true};
    if (got->opcode == 9) {
      client.send(10, got->payload);
      continue;
    }
    if (got->opcode != 2) continue;
    std::vector<std::uint8_t> bytes(got->payload.begin(), got->payload.end());
    docs::ydoc::Decoder dec(bytes);
    dec.readVarString();
    Message message;
    message.type = dec.readVarUint();
    auto rest = dec.readBytes(dec.remaining());
    message.payload.assign(rest.begin(), rest.end());
    if (message.type == type) return message;
  }
}

json statelessJson(const Message& message) {
  docs::ydoc::Decoder dec(message.payload);
  return json::parse(dec.readVarString());
}

class CommentsLive : public ::testing::Test {
 protected:
  void SetUp() override {
    std::map<std::string, std::string> env = {{"DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,collab,comments"},
                                              {"DOCS_LOG_ACCESS", "false"}};
    Docsd::Options options;
    options.env = env;
    options.databaseUrl = database_.url();
    nodeA_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(nodeA_->start()) << nodeA_->log();
    nodeB_ = std::make_unique<Docsd>(options);
    ASSERT_TRUE(nodeB_->start()) << nodeB_->log();
    alice_ = docs::test::signInByEmail(*nodeA_, "alice@example.com");
    bob_ = docs::test::signInByEmail(*nodeA_, "bob@example.com");
    carol_ = docs::test::signInByEmail(*nodeA_, "carol@example.com");
    auto created = call(*nodeA_, "POST", "/api/project", json{{"name", "Live"}, {"is_private", true}}, alice_);
    ASSERT_EQ(created.status, 201) << created.body;
    projectId_ = json::parse(created.body)["id"];
    pageId_ = json::parse(created.body)["default_page_id"];
    for (auto [email, role] : {std::pair{"bob@example.com", "write"}, std::pair{"carol@example.com", "read"}}) {
      auto granted = call(*nodeA_, "POST", "/api/rbac/project",
                          json{{"project_id", projectId_}, {"email", email}, {"role", role}}, alice_);
      ASSERT_EQ(granted.status, 201) << granted.body;
    }
    room_ = std::to_string(projectId_) + "__" + std::to_string(pageId_);
  }

  static docs::test::HttpResponse call(const Docsd& node, const std::string& method, const std::string& path,
                                       const json& body, const SignedIn& who) {
    auto headers = who.bearer();
    headers["Content-Type"] = "application/json";
    return httpRequest(node.port(), method, path, body.dump(), headers);
  }

  void join(WsClient& client, const Docsd& node, const SignedIn& who) {
    ASSERT_TRUE(client.connect(node.port(), "/collaboration"));
    ASSERT_TRUE(client.sendBinary(authFrame(room_, who.token)));
    auto answer = nextOfType(client, 2);
    ASSERT_FALSE(answer.closed);
    ASSERT_FALSE(answer.payload.empty());
    ASSERT_EQ(answer.payload[0], 2) << "not Authenticated";
  }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> nodeA_, nodeB_;
  SignedIn alice_, bob_, carol_;
  std::int64_t projectId_ = 0, pageId_ = 0;
  std::string room_;
};

TEST_F(CommentsLive, NewThreadsRepliesAndResolutionsReachEditorsOnEveryNode) {
  WsClient readerOnB, writerOnA;
  join(readerOnB, *nodeB_, carol_);
  join(writerOnA, *nodeA_, bob_);
  std::string comments = "/api/page/" + std::to_string(pageId_) + "/comments";

  auto created = call(*nodeA_, "POST", comments, json{{"body", "Live?"}, {"quote", "x"}}, bob_);
  ASSERT_EQ(created.status, 201) << created.body;
  std::int64_t threadId = json::parse(created.body)["thread"]["id"];
  std::int64_t commentId = json::parse(created.body)["comment"]["id"];
  for (auto* client : {&readerOnB, &writerOnA}) {
    auto news = nextOfType(*client, 5);
    ASSERT_FALSE(news.closed);
    auto payload = statelessJson(news);
    EXPECT_EQ(payload["type"], "comments");
    EXPECT_EQ(payload["page_id"], pageId_);
    EXPECT_EQ(payload["thread_id"], threadId);
    EXPECT_EQ(payload["change"], "created");
  }

  ASSERT_EQ(call(*nodeB_, "POST", comments, json{{"body", "Yes"}, {"thread_id", threadId}}, alice_).status, 201);
  EXPECT_EQ(statelessJson(nextOfType(readerOnB, 5))["change"], "replied");
  ASSERT_EQ(call(*nodeA_, "PATCH", "/api/comment/" + std::to_string(commentId), json{{"resolved", true}}, bob_).status,
            200);
  EXPECT_EQ(statelessJson(nextOfType(readerOnB, 5))["change"], "resolved");
  // Only news: what changed is read through the authorized GET.
  auto listed = httpRequest(nodeB_->port(), "GET", comments, "", carol_.bearer());
  ASSERT_EQ(listed.status, 200);
  EXPECT_TRUE(json::parse(listed.body)["threads"][0]["resolved"].get<bool>());
}

}  // namespace
