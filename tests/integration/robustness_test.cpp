// Abuse of the HTTP and WebSocket front: slow clients, many idle sockets, bad frames.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::WsClient;

namespace {

class RobustnessTest : public ::testing::Test {
 protected:
  void startServer(std::map<std::string, std::string> env = {}) {
    docsd_ = std::make_unique<Docsd>(Docsd::Options{env, {"serve"}, "", database_.url()});
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
};

}  // namespace

TEST_F(RobustnessTest, TricklingHeadersAreCutOffWithoutHurtingOthers) {
  startServer({{"DOCS_SERVER_HEADER_TIMEOUT_MS", "1000"}, {"DOCS_LOG_ACCESS", "false"}});
  int slow = docs::test::connectTo(docsd_->port());
  ASSERT_GE(slow, 0);
  std::string request = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ";
  auto started = std::chrono::steady_clock::now();
  bool closed = false;
  std::thread others([&] {
    for (int i = 0; i < 20; ++i) {
      auto r = httpRequest(docsd_->port(), "GET", "/healthz", "", {}, std::chrono::seconds(2));
      EXPECT_EQ(r.status, 200) << "other clients must be served while one trickles";
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  // One byte every 200 ms: each read succeeds, so only a whole-header deadline stops it.
  for (std::size_t i = 0; i < 60 && !closed; ++i) {
    char c = i < request.size() ? request[i] : 'a';
    if (::send(slow, &c, 1, MSG_NOSIGNAL) != 1) closed = true;
    char buffer[256];
    ssize_t n = ::recv(slow, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n == 0) closed = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  auto elapsed = std::chrono::steady_clock::now() - started;
  others.join();
  ::close(slow);
  EXPECT_TRUE(closed) << "the trickling client was never disconnected";
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST_F(RobustnessTest, MalformedRequestsGetAnswersNotCrashes) {
  startServer();
  for (const std::string& raw : std::vector<std::string>{"GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n",
                                "GET http://evil/x HTTP/1.1\r\nHost: x\r\n\r\n",
                                "POST /api/example/echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                                "POST /api/example/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
                                std::string("GET /\0/x HTTP/1.1\r\nHost: x\r\n\r\n", 31)}) {
    docs::test::rawExchange(docsd_->port(), raw, std::chrono::milliseconds(1500));
  }
  EXPECT_EQ(httpRequest(docsd_->port(), "GET", "/healthz").status, 200);
}

TEST_F(RobustnessTest, WebSocketEchoAndCloseHandshake) {
  startServer();
  WsClient client;
  ASSERT_TRUE(client.connect(docsd_->port(), "/api/example/ws"));
  ASSERT_TRUE(client.sendBinary(std::string("\x00\x01\x02", 3)));
  auto frame = client.receive();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->opcode, 2);
  EXPECT_EQ(frame->payload, std::string("\x00\x01\x02", 3));
  ASSERT_TRUE(client.sendText(std::string(100000, 'x')));
  frame = client.receive();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->payload.size(), 100000u);
  ASSERT_TRUE(client.send(9, "are you there"));
  frame = client.receive();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->opcode, 10);
  EXPECT_EQ(frame->payload, "are you there");
  ASSERT_TRUE(client.send(8, std::string("\x03\xE8", 2)));
  frame = client.receive();
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->opcode, 8);
  EXPECT_TRUE(client.waitForEof(std::chrono::seconds(3)));
}

TEST_F(RobustnessTest, BadWebSocketFramesCloseOnlyThatConnection) {
  startServer();
  WsClient good;
  ASSERT_TRUE(good.connect(docsd_->port(), "/api/example/ws"));
  struct Case {
    std::string bytes;
    int code;
  };
  std::vector<Case> cases = {
      {std::string("\x82\x03" "abc", 5), 1002},                          // unmasked
      {docs::test::maskedFrame(0x1, "\xC3\x28"), 1007},                  // bad UTF-8 text
      {docs::test::maskedFrame(0x3, "x"), 1002},                         // reserved opcode
      {std::string("\x82\xFF\x80\x00\x00\x00\x00\x00\x00\x00", 10), 1002},  // 64-bit length, high bit
      {std::string("\x82\xFF\x00\x00\x00\x01\x00\x00\x00\x00", 10) + "mask", 1009},  // 4 GiB declared
  };
  for (const auto& c : cases) {
    WsClient bad;
    ASSERT_TRUE(bad.connect(docsd_->port(), "/api/example/ws"));
    ASSERT_TRUE(bad.sendRaw(c.bytes));
    auto frame = bad.receive(std::chrono::seconds(3));
    ASSERT_TRUE(frame) << "expected a close frame for code " << c.code;
    EXPECT_EQ(frame->opcode, 8);
    ASSERT_GE(frame->payload.size(), 2u);
    int code = (static_cast<unsigned char>(frame->payload[0]) << 8) | static_cast<unsigned char>(frame->payload[1]);
    EXPECT_EQ(code, c.code);
  }
  ASSERT_TRUE(good.sendText("still here"));
  auto echo = good.receive();
  ASSERT_TRUE(echo);
  EXPECT_EQ(echo->payload, "still here");
}

TEST_F(RobustnessTest, ThousandIdleWebSocketsHoldNoThreads) {
  docs::test::raiseOpenFileLimit(8192);
  startServer({{"DOCS_LOG_ACCESS", "false"}});
  int threadsBefore = docsd_->threadCount();
  std::vector<WsClient> clients(1000);
  for (std::size_t i = 0; i < clients.size(); ++i)
    ASSERT_TRUE(clients[i].connect(docsd_->port(), "/api/example/ws")) << "socket " << i;
  // Plain HTTP keeps being answered while they idle.
  for (int i = 0; i < 50; ++i) {
    auto r = httpRequest(docsd_->port(), "GET", "/api/example/hello", "", {}, std::chrono::seconds(3));
    ASSERT_EQ(r.status, 200) << "request " << i;
  }
  int threadsWith = docsd_->threadCount();
  EXPECT_LT(threadsWith - threadsBefore, 50) << "idle WebSockets must not hold threads (" << threadsBefore
                                             << " -> " << threadsWith << ")";
  // Every socket is still alive and served.
  for (std::size_t i = 0; i < clients.size(); i += 97) {
    ASSERT_TRUE(clients[i].sendText("ping " + std::to_string(i)));
    auto echo = clients[i].receive();
    ASSERT_TRUE(echo) << "socket " << i;
    EXPECT_EQ(echo->payload, "ping " + std::to_string(i));
  }
}
