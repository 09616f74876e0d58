#pragma once
// The durable job queue (docs::JobQueue) and its workers.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "db/migrations.hpp"
#include "docs/jobs.hpp"
#include "docs/logger.hpp"
#include "docs/metrics.hpp"

namespace docs {
class Db;
}

namespace docs::core {

struct JobQueueOptions {
  int workers = 2;
  int leaseSeconds = 60;
  int retryBaseMs = 1000;  // backoff: base * 2^(attempt-1), capped at an hour
  int pollMs = 2000;       // fallback when no NOTIFY arrives
  std::string nodeId;      // identifies this process in locked_by
};

// One claimed job as the queue hands it out.
struct ClaimedJob {
  std::int64_t id = 0;
  std::string kind;
  nlohmann::json payload;
  int attempt = 0;
  int maxAttempts = 0;
};

class PgJobQueue final : public JobQueue {
 public:
  PgJobQueue(Db& db, JobQueueOptions options, std::shared_ptr<Logger> logger);
  ~PgJobQueue() override;

  void addHandler(std::string kind, JobHandler handler);
  // Counts claims, failures and durations by job kind (docs/metrics.md). Before start().
  void setMetrics(Metrics& metrics);
  std::int64_t enqueue(const JobSpec& spec) override;
  std::int64_t enqueue(Tx& tx, const JobSpec& spec) override;

  void start();
  // Stops claiming, waits up to `grace` for running jobs and logs each one that overran
  // it (id, kind, time run). An overrunning job keeps its thread; if the process exits
  // first, its lease expires and it is retried.
  void stop(std::chrono::milliseconds grace);
  // After stop(): waits up to `bound` for the jobs still running to return; false (and
  // each one logged) if some still run, which may use the database until they return.
  bool waitForRunning(std::chrono::milliseconds bound);
  // Wakes idle workers (NOTIFY arrived).
  void wake();

  // Exposed for tests: claim one job of the given kinds as `workerId`.
  std::optional<ClaimedJob> claim(const std::string& workerId, const std::vector<std::string>& kinds);
  bool complete(const ClaimedJob& job, const std::string& workerId);
  bool fail(const ClaimedJob& job, const std::string& workerId, const std::string& error);
  bool heartbeat(const ClaimedJob& job, const std::string& workerId);

 private:
  void workerLoop(int index);
  void runJob(const ClaimedJob& job, const std::string& workerId);
  std::vector<std::string> kinds() const;
  // Waits until no job runs or `deadline`; true if none runs.
  bool waitUntilIdle(std::chrono::steady_clock::time_point deadline);
  // Logs each job still running with `message`.
  void logRunning(std::string_view message);

  struct RunningJob {
    std::int64_t id = 0;
    std::string kind;
    std::chrono::steady_clock::time_point started;
  };

  Db& db_;
  JobQueueOptions options_;
  std::shared_ptr<Logger> logger_;
  std::map<std::string, JobHandler> handlers_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::mutex runningMutex_;
  std::condition_variable jobEnded_;
  std::map<int, RunningJob> running_;  // by worker index
  Counter* claimed_ = nullptr;
  Counter* failed_ = nullptr;
  Histogram* duration_ = nullptr;
  std::uint64_t wakeSerial_ = 0;
};

// The migrations of the jobs and periodic_runs tables (owner "core").
std::vector<Migration> coreJobsMigrations();

}  // namespace docs::core
