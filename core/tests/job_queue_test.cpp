#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>

#include "db/migrations.hpp"
#include "db/pg_pool.hpp"
#include "jobs/job_queue.hpp"
#include "test_support.hpp"

using docs::core::ClaimedJob;
using docs::core::PgJobQueue;

class JobQueueTest : public ::testing::Test {
 protected:
  void SetUp() override { docs::core::applyMigrations(pool_, docs::core::coreJobsMigrations()); }
  std::unique_ptr<PgJobQueue> makeQueue(int leaseSeconds = 60, int retryBaseMs = 1000) {
    docs::core::JobQueueOptions options;
    options.leaseSeconds = leaseSeconds;
    options.retryBaseMs = retryBaseMs;
    options.pollMs = 50;
    options.nodeId = "test";
    return std::make_unique<PgJobQueue>(pool_, options, nullptr);
  }
  std::string status(std::int64_t id) {
    return pool_.exec("SELECT status FROM jobs WHERE id = $1", {id})[0].text("status");
  }
  docs::test::TestDatabase database_;
  docs::core::PgPool pool_{{database_.url(), 8, 30000}};
};

TEST_F(JobQueueTest, ConcurrentWorkersNeverClaimTheSameJob) {
  auto queue = makeQueue();
  for (int i = 0; i < 200; ++i) queue->enqueue({"work", {{"n", i}}});
  std::mutex mutex;
  std::multiset<std::int64_t> claimed;
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&, w] {
      std::string id = "worker-" + std::to_string(w);
      while (auto job = queue->claim(id, {"work"})) {
        {
          std::lock_guard lock(mutex);
          claimed.insert(job->id);
        }
        EXPECT_TRUE(queue->complete(*job, id));
      }
    });
  for (auto& w : workers) w.join();
  EXPECT_EQ(claimed.size(), 200u);
  EXPECT_EQ(std::set<std::int64_t>(claimed.begin(), claimed.end()).size(), 200u);
  EXPECT_EQ(pool_.exec("SELECT count(*) AS n FROM jobs WHERE status = 'done'")[0].int64("n"), 200);
}

TEST_F(JobQueueTest, ExpiredLeaseIsRetriedAndTheOldWorkerLosesIt) {
  auto queue = makeQueue(/*leaseSeconds=*/1);
  auto id = queue->enqueue({"work"});
  auto first = queue->claim("dead-worker", {"work"});
  ASSERT_TRUE(first);
  EXPECT_EQ(first->attempt, 1);
  EXPECT_FALSE(queue->claim("other", {"work"})) << "a leased job must not be claimed again";
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  auto second = queue->claim("live-worker", {"work"});
  ASSERT_TRUE(second);
  EXPECT_EQ(second->id, id);
  EXPECT_EQ(second->attempt, 2);
  EXPECT_FALSE(queue->complete(*first, "dead-worker")) << "the zombie must not finish a job it lost";
  EXPECT_TRUE(queue->complete(*second, "live-worker"));
  EXPECT_EQ(status(id), "done");
}

TEST_F(JobQueueTest, HeartbeatKeepsTheLease) {
  auto queue = makeQueue(/*leaseSeconds=*/1);
  queue->enqueue({"work"});
  auto job = queue->claim("w", {"work"});
  ASSERT_TRUE(job);
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    EXPECT_TRUE(queue->heartbeat(*job, "w"));
  }
  EXPECT_FALSE(queue->claim("thief", {"work"}));
}

TEST_F(JobQueueTest, FailuresBackOffThenFailWithTheErrorKept) {
  auto queue = makeQueue(60, /*retryBaseMs=*/100);
  auto id = queue->enqueue({"work", {}, /*attempts=*/2});
  auto first = queue->claim("w", {"work"});
  ASSERT_TRUE(first);
  EXPECT_TRUE(queue->fail(*first, "w", "disk full"));
  EXPECT_EQ(status(id), "queued");
  EXPECT_FALSE(queue->claim("w", {"work"})) << "backoff must delay the retry";
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  auto second = queue->claim("w", {"work"});
  ASSERT_TRUE(second);
  EXPECT_TRUE(queue->fail(*second, "w", "still full"));
  auto row = pool_.exec("SELECT status, last_error, attempts FROM jobs WHERE id = $1", {id})[0];
  EXPECT_EQ(row.text("status"), "failed");
  EXPECT_EQ(row.text("last_error"), "still full");
  EXPECT_EQ(row.int64("attempts"), 2);
}

TEST_F(JobQueueTest, DedupeKeyAllowsOnePendingJob) {
  auto queue = makeQueue();
  EXPECT_GT(queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0);
  EXPECT_EQ(queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0);
  auto job = queue->claim("w", {"sync"});
  ASSERT_TRUE(job);
  EXPECT_EQ(queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0) << "running counts too";
  queue->complete(*job, "w");
  EXPECT_EQ(status(job->id), "done");
  EXPECT_GT(queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0);
}

// "The data changed" while a job over it runs: that job may have read it already, so it
// runs once more when it ends (once, however many such enqueues came).
TEST_F(JobQueueTest, AnEnqueueMeetingItsRunningHolderMakesItRunOnceMore) {
  auto queue = makeQueue();
  using docs::WhileRunning;
  auto again = [&] {
    return queue->enqueue({"index", {{"page", 7}}, 5, std::chrono::seconds(0), "page:7", WhileRunning::RunAgain});
  };
  auto id = again();
  ASSERT_GT(id, 0);
  EXPECT_EQ(again(), 0) << "a queued holder will read the change itself";
  auto first = queue->claim("w", {"index"});
  ASSERT_TRUE(first);
  EXPECT_EQ(again(), 0);
  EXPECT_EQ(again(), 0);
  EXPECT_EQ(queue->enqueue({"index", {{"page", 7}}, 5, std::chrono::seconds(0), "page:7"}), 0);
  EXPECT_TRUE(queue->complete(*first, "w"));
  EXPECT_EQ(status(id), "queued");
  auto second = queue->claim("w", {"index"});
  ASSERT_TRUE(second);
  EXPECT_EQ(second->id, id);
  EXPECT_EQ(second->attempt, 1) << "its attempts are counted afresh";
  EXPECT_EQ(second->payload["page"], 7);
  EXPECT_TRUE(queue->complete(*second, "w"));
  EXPECT_EQ(status(id), "done") << "twice marked, once more run";
  EXPECT_FALSE(queue->claim("w", {"index"}));

  // Without RunAgain, a running holder is enough.
  auto other = queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"});
  auto running = queue->claim("w", {"sync"});
  ASSERT_TRUE(running);
  EXPECT_EQ(queue->enqueue({"sync", {}, 5, std::chrono::seconds(0), "project:1"}), 0);
  EXPECT_TRUE(queue->complete(*running, "w"));
  EXPECT_EQ(status(other), "done");

  // A failure's retry reads the data again: the mark is spent on it.
  auto failing = again();
  auto attempt = queue->claim("w", {"index"});
  ASSERT_TRUE(attempt);
  EXPECT_EQ(again(), 0);
  EXPECT_TRUE(queue->fail(*attempt, "w", "busy"));
  EXPECT_EQ(pool_.exec("SELECT run_again FROM jobs WHERE id = $1", {failing})[0].boolean("run_again"), false);
}

TEST_F(JobQueueTest, TransactionalEnqueueVanishesOnRollback) {
  auto queue = makeQueue();
  EXPECT_THROW(pool_.transaction([&](docs::Tx& tx) {
    queue->enqueue(tx, {"work"});
    throw std::runtime_error("abort");
  }),
               std::runtime_error);
  EXPECT_EQ(pool_.exec("SELECT count(*) AS n FROM jobs")[0].int64("n"), 0);
}

TEST_F(JobQueueTest, WorkersRunHandlersAndRetryThrowingOnes) {
  auto queue = makeQueue(60, /*retryBaseMs=*/50);
  std::atomic<int> runs{0};
  queue->addHandler("flaky", [&](docs::JobContext& job) {
    ++runs;
    if (job.attempt() < 3) throw std::runtime_error("not yet");
  });
  auto id = queue->enqueue({"flaky"});
  queue->start();
  for (int i = 0; i < 100 && status(id) != "done"; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  queue->stop(std::chrono::seconds(5));
  EXPECT_EQ(status(id), "done");
  EXPECT_EQ(runs.load(), 3);
}
