// The local event bus at shutdown: closeFor waits only for the events queued before it,
// within a bound, and names the handler that holds delivery up.
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "events/event_bus.hpp"

using docs::core::LocalEventBus;
using namespace std::chrono_literals;

namespace {

class RecordingLogger final : public docs::Logger {
 public:
  void log(docs::LogLevel, std::string_view message, const nlohmann::json& fields) override {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::string(message) + " " + fields.dump());
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

// A count that a test can wait on.
class Counter {
 public:
  void add() {
    {
      std::lock_guard lock(mutex_);
      ++value_;
    }
    changed_.notify_all();
  }
  int value() const {
    std::lock_guard lock(mutex_);
    return value_;
  }
  // True once the count reaches n; false after `guard` (the test then fails).
  bool waitFor(int n, std::chrono::milliseconds guard = 30s) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, guard, [&] { return value_ >= n; });
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int value_ = 0;
};

}  // namespace

TEST(EventBus, ClosingAPluginDeliversWhatWasQueuedBeforeAndNothingAfter) {
  auto logger = std::make_shared<RecordingLogger>();
  LocalEventBus bus(nullptr, "node", logger);
  Counter seen;
  bus.subscribe("t", "a", [&](const nlohmann::json&) { seen.add(); });
  bus.start();
  for (int i = 0; i < 3; ++i) bus.publish("t", {{"i", i}});
  EXPECT_TRUE(bus.closeFor("a", 30s));
  EXPECT_EQ(seen.value(), 3);
  bus.publish("t", {{"i", 3}});
  EXPECT_TRUE(bus.stop(30s));
  EXPECT_EQ(seen.value(), 3) << "no event reaches a closed plugin";
  EXPECT_TRUE(logger->lines().empty());
}

TEST(EventBus, APublisherThatKeepsPublishingDoesNotHoldCloseFor) {
  auto logger = std::make_shared<RecordingLogger>();
  LocalEventBus bus(nullptr, "node", logger);
  // Each delivery waits until another event is queued behind it, and the publisher
  // keeps a few ahead: while it publishes, the queue is never empty.
  std::mutex mutex;
  std::condition_variable changed;
  int published = 0, delivered = 0;
  bool publishing = true;
  bus.subscribe("busy", "a", [&](const nlohmann::json&) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return published >= delivered + 2 || !publishing; });
    ++delivered;
    changed.notify_all();
  });
  bus.start();
  std::thread publisher([&] {
    for (;;) {
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return published < delivered + 3 || !publishing; });
        if (!publishing) return;
      }
      bus.publish("busy", {});
      std::lock_guard lock(mutex);
      ++published;
      changed.notify_all();
    }
  });
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 30s, [&] { return delivered >= 20; }));
  }
  auto closing = std::async(std::launch::async, [&] { return bus.closeFor("b", 60s); });
  const bool returned = closing.wait_for(10s) == std::future_status::ready;
  {
    std::lock_guard lock(mutex);
    publishing = false;
    changed.notify_all();
  }
  publisher.join();
  ASSERT_TRUE(returned) << "closeFor waited for events published after it was called";
  EXPECT_TRUE(closing.get());
  EXPECT_TRUE(bus.stop(30s));
  EXPECT_TRUE(logger->lines().empty());
}

TEST(EventBus, AStuckHandlerIsNamedAndNoLongerHoldsTheStop) {
  auto logger = std::make_shared<RecordingLogger>();
  LocalEventBus bus(nullptr, "node", logger);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Counter entered;
  bus.subscribe("page.updated", "stuck", [&](const nlohmann::json&) {
    entered.add();
    released.wait();
  });
  Counter others;
  bus.subscribe("page.updated", "other", [&](const nlohmann::json&) { others.add(); });
  bus.start();
  bus.publish("page.updated", {});
  ASSERT_TRUE(entered.waitFor(1));

  EXPECT_FALSE(bus.closeFor("other", 100ms));
  auto lines = logger->lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(R"("plugin":"stuck")"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(R"("topic":"page.updated")"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(R"("closing":"other")"), std::string::npos) << lines[0];
  // The same stuck handler does not make the next plugin wait its bound again.
  auto next = std::async(std::launch::async, [&] { return bus.closeFor("third", 60s); });
  ASSERT_EQ(next.wait_for(30s), std::future_status::ready);
  EXPECT_FALSE(next.get());

  release.set_value();
  EXPECT_TRUE(bus.stop(30s));
  EXPECT_EQ(others.value(), 0) << "closed while the event was held up: not delivered after";
}
