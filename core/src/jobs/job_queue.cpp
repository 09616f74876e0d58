#include "jobs/job_queue.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "docs/db.hpp"

namespace docs::core {

namespace {

std::string textArray(const std::vector<std::string>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ",";
    out += "\"";
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += "\"";
  }
  return out + "}";
}

// A held dedupe key either drops the enqueue or, for WhileRunning::RunAgain and a running
// holder, marks the holder (the row lock orders this with its completion: a holder that
// completed first no longer holds the key, and the insert goes ahead).
constexpr const char* kInsertSql =
    "WITH ins AS ("
    " INSERT INTO jobs (kind, payload, max_attempts, run_at, dedupe_key)"
    " VALUES ($1, $2::jsonb, $3, now() + make_interval(secs => $4), NULLIF($5, ''))"
    " ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('queued', 'running')"
    " DO UPDATE SET run_again = true WHERE $6 AND jobs.status = 'running'"
    " RETURNING id, xmax = 0 AS inserted)"
    " SELECT id, inserted, pg_notify('docs_jobs', '') FROM ins";

Params insertParams(const JobSpec& spec) {
  if (spec.kind.empty()) throw std::invalid_argument("a job needs a kind");
  return {spec.kind,
          spec.payload.dump(),
          std::max(1, spec.maxAttempts),
          static_cast<std::int64_t>(spec.delay.count()),
          spec.dedupeKey,
          spec.whileRunning == WhileRunning::RunAgain};
}

std::int64_t insertedId(const Result& result) {
  return result.empty() || !result[0].boolean("inserted") ? 0 : result[0].int64("id");
}

class JobContextImpl final : public JobContext {
 public:
  JobContextImpl(PgJobQueue& queue, const ClaimedJob& job, std::string workerId, const std::atomic<bool>& stopping)
      : queue_(queue), job_(job), workerId_(std::move(workerId)), stopping_(stopping) {}
  std::int64_t id() const override { return job_.id; }
  int attempt() const override { return job_.attempt; }
  const nlohmann::json& payload() const override { return job_.payload; }
  void heartbeat() override {
    if (!queue_.heartbeat(job_, workerId_)) throw std::runtime_error("job lease was lost");
  }
  bool stopping() const override { return stopping_.load(); }

 private:
  PgJobQueue& queue_;
  const ClaimedJob& job_;
  std::string workerId_;
  const std::atomic<bool>& stopping_;
};

std::string jobsTablesSql() {
  return R"SQL(
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  lease_until timestamptz,
  last_error text,
  dedupe_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_ready ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX jobs_leases ON jobs (lease_until) WHERE status = 'running';
CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE dedupe_key IS NOT NULL AND status IN ('queued', 'running');
CREATE TABLE periodic_runs (
  name text PRIMARY KEY,
  last_run timestamptz NOT NULL
);
)SQL";
}

}  // namespace

std::vector<Migration> coreJobsMigrations() {
  return {{"core", 1, "jobs and periodic runs", jobsTablesSql()},
          {"core", 2, "a running job marked to run again",
           "ALTER TABLE jobs ADD COLUMN run_again boolean NOT NULL DEFAULT false;"}};
}

PgJobQueue::PgJobQueue(Db& db, JobQueueOptions options, std::shared_ptr<Logger> logger)
    : db_(db), options_(std::move(options)), logger_(std::move(logger)) {}

PgJobQueue::~PgJobQueue() { stop(std::chrono::milliseconds(0)); }

void PgJobQueue::addHandler(std::string kind, JobHandler handler) {
  if (handlers_.count(kind)) throw std::invalid_argument("two handlers for job kind " + kind);
  handlers_.emplace(std::move(kind), std::move(handler));
}

std::vector<std::string> PgJobQueue::kinds() const {
  std::vector<std::string> out;
  for (const auto& [kind, handler] : handlers_) out.push_back(kind);
  return out;
}

std::int64_t PgJobQueue::enqueue(const JobSpec& spec) { return insertedId(db_.exec(kInsertSql, insertParams(spec))); }

std::int64_t PgJobQueue::enqueue(Tx& tx, const JobSpec& spec) {
  return insertedId(tx.exec(kInsertSql, insertParams(spec)));
}

std::optional<ClaimedJob> PgJobQueue::claim(const std::string& workerId, const std::vector<std::string>& kinds) {
  if (kinds.empty()) return std::nullopt;
  auto result = db_.exec(
      "WITH next AS ("
      " SELECT id FROM jobs"
      " WHERE kind = ANY($2::text[])"
      "   AND ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND lease_until < now()))"
      " ORDER BY run_at, id FOR UPDATE SKIP LOCKED LIMIT 1)"
      " UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, locked_by = $1,"
      "   lease_until = now() + make_interval(secs => $3), updated_at = now()"
      " FROM next WHERE j.id = next.id"
      " RETURNING j.id, j.kind, j.payload::text AS payload, j.attempts, j.max_attempts",
      {workerId, textArray(kinds), options_.leaseSeconds});
  if (result.empty()) return std::nullopt;
  ClaimedJob job;
  job.id = result[0].int64("id");
  job.kind = result[0].text("kind");
  job.payload = nlohmann::json::parse(result[0].text("payload"), nullptr, false);
  job.attempt = static_cast<int>(result[0].int64("attempts"));
  job.maxAttempts = static_cast<int>(result[0].int64("max_attempts"));
  return job;
}

bool PgJobQueue::complete(const ClaimedJob& job, const std::string& workerId) {
  // Marked to run again: queued once more, with its attempts counted afresh.
  auto result = db_.exec(
      "UPDATE jobs SET status = CASE WHEN run_again THEN 'queued' ELSE 'done' END,"
      " attempts = CASE WHEN run_again THEN 0 ELSE attempts END, run_at = now(), run_again = false,"
      " finished_at = CASE WHEN run_again THEN NULL ELSE now() END, updated_at = now(), locked_by = NULL,"
      " lease_until = NULL WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND status = 'running'"
      " RETURNING status",
      {job.id, workerId, job.attempt});
  if (result.empty()) return false;
  if (result[0].text("status") == "queued") wake();
  return true;
}

bool PgJobQueue::fail(const ClaimedJob& job, const std::string& workerId, const std::string& error) {
  bool final = job.attempt >= job.maxAttempts;
  std::int64_t backoffMs = std::min<std::int64_t>(
      static_cast<std::int64_t>(options_.retryBaseMs) << std::min(job.attempt - 1, 20), 3600 * 1000);
  auto result = db_.exec(
      "UPDATE jobs SET status = CASE WHEN $4 THEN 'failed' ELSE 'queued' END,"
      " run_at = now() + make_interval(secs => $5::double precision / 1000), last_error = $6,"
      " finished_at = CASE WHEN $4 THEN now() ELSE NULL END, updated_at = now(), locked_by = NULL,"
      " run_again = false, lease_until = NULL WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND status = "
      "'running'",
      {job.id, workerId, job.attempt, final, backoffMs, error});
  return result.affectedRows() == 1;
}

bool PgJobQueue::heartbeat(const ClaimedJob& job, const std::string& workerId) {
  auto result = db_.exec(
      "UPDATE jobs SET lease_until = now() + make_interval(secs => $4), updated_at = now()"
      " WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND status = 'running'",
      {job.id, workerId, job.attempt, options_.leaseSeconds});
  return result.affectedRows() == 1;
}

void PgJobQueue::start() {
  if (handlers_.empty()) return;
  for (int i = 0; i < options_.workers; ++i) threads_.emplace_back([this, i] { workerLoop(i); });
}

void PgJobQueue::wake() {
  std::lock_guard lock(mutex_);
  ++wakeSerial_;
  wake_.notify_all();
}

void PgJobQueue::stop(std::chrono::milliseconds grace) {
  stopping_ = true;
  wake();
  bool idle = waitUntilIdle(std::chrono::steady_clock::now() + grace);
  if (!idle)
    logRunning("a job overran the stop deadline; it keeps running, and its lease expires if docsd exits first");
  for (auto& thread : threads_) {
    if (!thread.joinable()) continue;
    // A job past the grace period is not joined: its worker ends when it returns.
    if (idle) thread.join();
    else thread.detach();
  }
  threads_.clear();
}

bool PgJobQueue::waitForRunning(std::chrono::milliseconds bound) {
  if (waitUntilIdle(std::chrono::steady_clock::now() + bound)) return true;
  logRunning("a job still runs at exit; it will be retried when its lease expires");
  return false;
}

bool PgJobQueue::waitUntilIdle(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(runningMutex_);
  return jobEnded_.wait_until(lock, deadline, [&] { return running_.empty(); });
}

void PgJobQueue::logRunning(std::string_view message) {
  std::vector<RunningJob> jobs;
  {
    std::lock_guard lock(runningMutex_);
    for (const auto& [worker, job] : running_) jobs.push_back(job);
  }
  if (!logger_) return;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& job : jobs)
    logger_->warn(message,
                  {{"job", job.id},
                   {"kind", job.kind},
                   {"running_ms", std::chrono::duration_cast<std::chrono::milliseconds>(now - job.started).count()}});
}

void PgJobQueue::setMetrics(Metrics& metrics) {
  claimed_ = &metrics.counter("docsd_jobs_claimed_total", "Jobs claimed by this node's workers, by kind.", {"kind"});
  failed_ = &metrics.counter("docsd_jobs_failed_total",
                             "Job attempts that failed (threw, or outlived every lease), by kind.", {"kind"});
  duration_ =
      &metrics.histogram("docsd_job_duration_seconds", "Time a job's handler ran, by kind and outcome (done, failed).",
                         {"kind", "outcome"}, {0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800});
}

void PgJobQueue::runJob(const ClaimedJob& job, const std::string& workerId) {
  if (claimed_) claimed_->inc({job.kind});
  if (job.attempt > job.maxAttempts) {
    if (failed_) failed_->inc({job.kind});
    fail(job, workerId, "lease expired on every attempt (the worker died or hung)");
    return;
  }
  auto handler = handlers_.find(job.kind);
  if (handler == handlers_.end()) return;
  JobContextImpl context(*this, job, workerId, stopping_);
  const auto started = std::chrono::steady_clock::now();
  auto finished = [&](std::string_view outcome) {
    if (outcome == "failed" && failed_) failed_->inc({job.kind});
    if (duration_)
      duration_->observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                         {job.kind, outcome});
  };
  try {
    handler->second(context);
    finished("done");
    if (!complete(job, workerId) && logger_)
      logger_->warn("job finished after its lease was taken over", {{"job", job.id}, {"kind", job.kind}});
  } catch (const std::exception& error) {
    finished("failed");
    if (logger_)
      logger_->warn("job failed",
                    {{"job", job.id}, {"kind", job.kind}, {"attempt", job.attempt}, {"error", error.what()}});
    fail(job, workerId, error.what());
  } catch (...) {
    finished("failed");
    fail(job, workerId, "unknown exception");
  }
}

void PgJobQueue::workerLoop(int index) {
  std::string workerId = options_.nodeId + "/" + std::to_string(index);
  auto kindList = kinds();
  while (!stopping_.load()) {
    std::uint64_t serial;
    {
      std::lock_guard lock(mutex_);
      serial = wakeSerial_;
    }
    std::optional<ClaimedJob> job;
    try {
      job = claim(workerId, kindList);
    } catch (const std::exception& error) {
      if (logger_) logger_->warn("claiming a job failed", {{"error", error.what()}});
    }
    if (job) {
      {
        std::lock_guard lock(runningMutex_);
        running_[index] = {job->id, job->kind, std::chrono::steady_clock::now()};
      }
      runJob(*job, workerId);
      {
        std::lock_guard lock(runningMutex_);
        running_.erase(index);
      }
      jobEnded_.notify_all();
      continue;
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, std::chrono::milliseconds(options_.pollMs),
                   [&] { return stopping_.load() || wakeSerial_ != serial; });
  }
}

}  // namespace docs::core
