// kill -9 at random moments while clients write: nothing acknowledged is lost.
#include <gtest/gtest.h>

#include <signal.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "test_support.hpp"
#include "ws_client.hpp"

using docs::test::Docsd;
using docs::test::httpRequest;
using nlohmann::json;

namespace {

int envInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

}  // namespace

TEST(Crash, Kill9LoopLosesNoAcknowledgedWrite) {
  const int loops = envInt("DOCS_TEST_CRASH_LOOPS", 3);
  docs::test::TempDir data;
  std::mt19937 random{std::random_device{}()};
  std::set<std::int64_t> acknowledged;
  for (int loop = 0; loop < loops; ++loop) {
    Docsd docsd({{{"DOCS_LOG_ACCESS", "false"}}, {"serve"}, data.path(), ""});
    ASSERT_TRUE(docsd.start(std::chrono::seconds(120))) << "loop " << loop << "\n" << docsd.log();
    // Everything acknowledged before is still there.
    for (auto id : acknowledged) {
      auto r = httpRequest(docsd.port(), "GET", "/api/example/notes/" + std::to_string(id));
      ASSERT_EQ(r.status, 200) << "note " << id << " lost after crash " << loop;
    }
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::vector<std::thread> writers;
    for (int w = 0; w < 2; ++w)
      writers.emplace_back([&, w] {
        int n = 0;
        while (!stop) {
          auto r = httpRequest(docsd.port(), "POST", "/api/example/notes",
                               json{{"text", "w" + std::to_string(w) + "-" + std::to_string(n++)}}.dump(),
                               {{"Content-Type", "application/json"}}, std::chrono::seconds(5));
          if (r.status == 201) {
            std::lock_guard lock(mutex);
            acknowledged.insert(json::parse(r.body)["id"].get<std::int64_t>());
          }
        }
      });
    std::this_thread::sleep_for(std::chrono::milliseconds(200 + random() % 1300));
    docsd.kill9();
    if (loop % 2 == 1) {
      // Every other time the database server dies too: its crash recovery must keep
      // every committed (acknowledged) write.
      std::ifstream pidFile(data.path() + "/pg/data/postmaster.pid");
      pid_t postmaster = 0;
      pidFile >> postmaster;
      if (postmaster > 0) ::kill(postmaster, SIGKILL);
    }
    stop = true;
    for (auto& t : writers) t.join();
  }
  Docsd last({{}, {"serve"}, data.path(), ""});
  ASSERT_TRUE(last.start(std::chrono::seconds(120))) << last.log();
  for (auto id : acknowledged)
    ASSERT_EQ(httpRequest(last.port(), "GET", "/api/example/notes/" + std::to_string(id)).status, 200) << id;
  EXPECT_GT(acknowledged.size(), 0u);
  std::printf("%zu acknowledged writes survived %d kill -9 cycles\n", acknowledged.size(), loops);
}

TEST(Full, TenThousandIdleWebSockets) {
  if (!std::getenv("DOCS_TEST_FULL")) GTEST_SKIP() << "full tier only (scripts/test.sh full)";
  docs::test::raiseOpenFileLimit(30000);
  docs::test::TestDatabase database;
  Docsd docsd(
      {{{"DOCS_LOG_ACCESS", "false"}, {"DOCS_SERVER_MAX_WEBSOCKETS_PER_ADDRESS", "0"}}, {"serve"}, "", database.url()});
  ASSERT_TRUE(docsd.start()) << docsd.log();
  std::vector<docs::test::WsClient> clients(10000);
  for (std::size_t i = 0; i < clients.size(); ++i)
    ASSERT_TRUE(clients[i].connect(docsd.port(), "/api/example/ws")) << i;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(httpRequest(docsd.port(), "GET", "/healthz").status, 200);
  for (std::size_t i = 0; i < clients.size(); i += 499) {
    ASSERT_TRUE(clients[i].sendText("x"));
    ASSERT_TRUE(clients[i].receive()) << i;
  }
  EXPECT_LT(docsd.threadCount(), 100);
}
