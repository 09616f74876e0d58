// Opens N idle WebSocket connections to a docsd and reports its memory per connection.
// usage: ws_idle PORT PID COUNT [PATH]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "ws_client.hpp"

namespace {
long rssKiB(int pid) { return docs::test::procStatusField(pid, "VmRSS"); }
int threads(int pid) { return static_cast<int>(docs::test::procStatusField(pid, "Threads")); }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ws_idle PORT PID COUNT [PATH]\n");
    return 2;
  }
  int port = std::atoi(argv[1]);
  int pid = std::atoi(argv[2]);
  int count = std::atoi(argv[3]);
  std::string path = argc > 4 ? argv[4] : "/api/example/ws";
  docs::test::raiseOpenFileLimit(count + 1024);
  long before = rssKiB(pid);
  int threadsBefore = threads(pid);
  auto started = std::chrono::steady_clock::now();
  std::vector<docs::test::WsClient> clients(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (!clients[static_cast<std::size_t>(i)].connect(port, path)) {
      std::fprintf(stderr, "connection %d failed\n", i);
      return 1;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  long after = rssKiB(pid);
  // Every connection still answers.
  int alive = 0;
  for (int i = 0; i < count; i += std::max(1, count / 100)) {
    auto& c = clients[static_cast<std::size_t>(i)];
    if (c.sendText("ping") && c.receive(std::chrono::seconds(5))) ++alive;
  }
  std::printf(
      "{\"connections\": %d, \"connect_seconds\": %.2f, \"rss_before_kib\": %ld, \"rss_after_kib\": %ld, "
      "\"bytes_per_connection\": %.0f, \"threads_before\": %d, \"threads_after\": %d, \"sampled_alive\": %d}\n",
      count, seconds, before, after, static_cast<double>(after - before) * 1024.0 / count, threadsBefore, threads(pid),
      alive);
  return 0;
}
