// Abuse of the HTTP and WebSocket front: slow clients, many idle sockets, bad frames.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::WsClient;
using namespace std::string_literals;

namespace {

class RobustnessTest : public ::testing::Test {
 protected:
  void startServer(std::map<std::string, std::string> env = {}) {
    docsd_ = std::make_unique<Docsd>(Docsd::Options{std::move(env), {"serve"}, "", database_.url()});
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
  for (const std::string& raw : std::vector<std::string>{
           "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET http://evil/x HTTP/1.1\r\nHost: x\r\n\r\n",
           "POST /api/example/echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
           "POST /api/example/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
           "GET /\0/x HTTP/1.1\r\nHost: x\r\n\r\n"s}) {
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
      {std::string("\x82\x03"
                   "abc",
                   5),
       1002},                                                                        // unmasked
      {docs::test::maskedFrame(0x1, "\xC3\x28"), 1007},                              // bad UTF-8 text
      {docs::test::maskedFrame(0x3, "x"), 1002},                                     // reserved opcode
      {std::string("\x82\xFF\x80\x00\x00\x00\x00\x00\x00\x00", 10), 1002},           // 64-bit length, high bit
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
  // All from one address: the per-address cap is lifted (WebSocketsPerAddressAreCapped).
  startServer({{"DOCS_LOG_ACCESS", "false"}, {"DOCS_SERVER_MAX_WEBSOCKETS_PER_ADDRESS", "0"}});
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
  EXPECT_LT(threadsWith - threadsBefore, 50)
      << "idle WebSockets must not hold threads (" << threadsBefore << " -> " << threadsWith << ")";
  // Every socket is still alive and served.
  for (std::size_t i = 0; i < clients.size(); i += 97) {
    ASSERT_TRUE(clients[i].sendText("ping " + std::to_string(i)));
    auto echo = clients[i].receive();
    ASSERT_TRUE(echo) << "socket " << i;
    EXPECT_EQ(echo->payload, "ping " + std::to_string(i));
  }
}

namespace {

// A TCP connection to 127.0.0.1:port from another loopback address, so one "client" can
// be told apart from the test's own requests.
int connectFrom(const char* source, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source, &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<std::uint16_t>(port));
  remote.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&remote), sizeof remote) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads what the server sends until it closes or `timeout` passes; "" and false when it
// stayed open.
std::pair<bool, std::string> readUntilClosed(int fd, std::chrono::milliseconds timeout) {
  std::string got;
  auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buffer[4096];
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) return {true, got};
    got.append(buffer, static_cast<std::size_t>(n));
  }
  return {false, got};
}

}  // namespace

// 260 slow PUT bodies once stopped /healthz. Now: a large body from nobody is refused
// before a byte of it is read; one address holds at most its share of the workers; a body
// that does not keep the minimum rate is cut off; everyone else is served throughout.
TEST_F(RobustnessTest, SlowBodiesFromOneAddressCannotStarveTheServer) {
  docs::test::raiseOpenFileLimit(4096);
  startServer({{"DOCS_SERVER_MAX_THREADS", "48"},
               {"DOCS_SERVER_MAX_CONNECTIONS_PER_ADDRESS", "16"},
               {"DOCS_SERVER_BODY_GRACE_MS", "1500"},
               {"DOCS_LOG_ACCESS", "false"}});
  const int port = docsd_->port();

  // Nobody signed in announces 5 MB: 401 at once, without sending the body.
  int big = connectFrom("127.0.0.2", port);
  ASSERT_GE(big, 0);
  std::string head =
      "PUT /api/page/1/content HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
      "5000000\r\n\r\n";
  ASSERT_EQ(::send(big, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
  auto [bigClosed, bigAnswer] = readUntilClosed(big, std::chrono::seconds(20));
  ::close(big);
  EXPECT_TRUE(bigClosed);
  EXPECT_NE(bigAnswer.find(" 401 "), std::string::npos) << bigAnswer;

  // 120 trickling bodies small enough to be read for anyone, from one address.
  std::vector<int> slow;
  std::string trickle =
      "POST /api/example/notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
      "60000\r\n\r\n{";
  for (int i = 0; i < 120; ++i) {
    int fd = connectFrom("127.0.0.2", port);
    ASSERT_GE(fd, 0) << i;
    (void)!::send(fd, trickle.data(), trickle.size(), MSG_NOSIGNAL);
    slow.push_back(fd);
  }
  // Those over the address's share are answered 429 and closed at once.
  int refused = 0;
  std::vector<int> admitted;
  for (int fd : slow) {
    auto [closed, answer] = readUntilClosed(fd, std::chrono::milliseconds(300));
    if (closed && answer.find(" 429 ") != std::string::npos) {
      ++refused;
      ::close(fd);
    } else {
      admitted.push_back(fd);
    }
  }
  EXPECT_GE(refused, 120 - 16);
  EXPECT_LE(admitted.size(), 16u);
  // Everyone else is served while they trickle.
  for (int i = 0; i < 10; ++i) {
    auto r = httpRequest(port, "GET", "/healthz", "", {}, std::chrono::seconds(10));
    EXPECT_EQ(r.status, 200) << "healthz " << i;
  }
  // The admitted ones keep sending a byte now and then, far under the minimum rate, and
  // are cut off once the grace time and their allowance are spent.
  std::size_t cut = 0;
  for (int round = 0; round < 600 && cut < admitted.size(); ++round) {
    cut = 0;
    for (int fd : admitted) {
      if (::send(fd, " ", 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
        ++cut;
        continue;
      }
      char c;
      ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) ++cut;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(cut, admitted.size()) << "trickling bodies were never cut off";
  for (int fd : admitted) ::close(fd);
  // The address may come back: its connections were all released.
  auto again = httpRequest(port, "GET", "/healthz", "", {}, std::chrono::seconds(10));
  EXPECT_EQ(again.status, 200);
  int fresh = connectFrom("127.0.0.2", port);
  ASSERT_GE(fresh, 0);
  std::string hello = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  (void)!::send(fresh, hello.data(), hello.size(), MSG_NOSIGNAL);
  auto [freshClosed, freshAnswer] = readUntilClosed(fresh, std::chrono::seconds(10));
  ::close(fresh);
  EXPECT_NE(freshAnswer.find(" 200 "), std::string::npos) << freshAnswer;
}

namespace {

// A WebSocket upgrade of `path` from `source`: the socket and the status code (0 when no
// answer came).
std::pair<int, int> upgradeFrom(const char* source, int port, const std::string& path) {
  int fd = connectFrom(source, port);
  if (fd < 0) return {-1, 0};
  std::string request = "GET " + path +
                        " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) return {fd, 0};
  std::string head;
  while (head.find("\r\n\r\n") == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return {fd, 0};
    char c;
    if (::recv(fd, &c, 1, 0) != 1) break;
    head.push_back(c);
  }
  if (head.size() < 12) return {fd, 0};
  return {fd, std::atoi(head.substr(9, 3).c_str())};
}

}  // namespace

// One address may hold server.max_websockets_per_address open WebSockets; past that the
// upgrade is answered 429, while other addresses still get in, and a closed socket frees
// its slot.
TEST_F(RobustnessTest, WebSocketsPerAddressAreCapped) {
  startServer({{"DOCS_SERVER_MAX_WEBSOCKETS_PER_ADDRESS", "4"}, {"DOCS_LOG_ACCESS", "false"}});
  const int port = docsd_->port();
  std::vector<int> held;
  for (int i = 0; i < 4; ++i) {
    auto [fd, status] = upgradeFrom("127.0.0.2", port, "/api/example/ws");
    ASSERT_EQ(status, 101) << "socket " << i;
    held.push_back(fd);
  }
  auto [refusedFd, refused] = upgradeFrom("127.0.0.2", port, "/api/example/ws");
  EXPECT_EQ(refused, 429);
  ::close(refusedFd);
  // Another address is not affected.
  WsClient other;
  ASSERT_TRUE(other.connect(port, "/api/example/ws"));
  ASSERT_TRUE(other.sendText("hello"));
  auto echo = other.receive();
  ASSERT_TRUE(echo);
  EXPECT_EQ(echo->payload, "hello");
  // Closing one frees its slot once the server has seen it go.
  ::close(held.back());
  held.pop_back();
  int status = 0;
  for (int attempt = 0; attempt < 200 && status != 101; ++attempt) {
    auto [fd, answer] = upgradeFrom("127.0.0.2", port, "/api/example/ws");
    status = answer;
    if (status == 101) held.push_back(fd);
    else ::close(fd);
    if (status == 429) {
      pollfd none{-1, 0, 0};
      ::poll(&none, 0, 25);  // the server has not seen the close yet
    }
  }
  EXPECT_EQ(status, 101);
  for (int fd : held) ::close(fd);
}
