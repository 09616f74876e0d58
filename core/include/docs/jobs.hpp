#pragma once
// Background jobs: durable in PostgreSQL, claimed with FOR UPDATE SKIP LOCKED, leased so a
// dead worker's job runs again, retried with backoff, kept with their error when they fail.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace docs {

class Tx;

// What happens to an enqueue whose dedupeKey is held by a job that is already running.
enum class WhileRunning {
  Drop,      // nothing: the running job is enough (a project's whole run)
  RunAgain,  // the running job runs once more when it ends, with its own payload: the
             // enqueue meant "the data changed", and the run may have read it before
};

struct JobSpec {
  JobSpec(std::string kindName, nlohmann::json payloadValue = nlohmann::json::object(), int attempts = 5,
          std::chrono::seconds delayBy = std::chrono::seconds(0), std::string dedupe = {},
          WhileRunning running = WhileRunning::Drop)
      : kind(std::move(kindName)),
        payload(std::move(payloadValue)),
        maxAttempts(attempts),
        delay(delayBy),
        dedupeKey(std::move(dedupe)),
        whileRunning(running) {}
  std::string kind;  // the handler's name, e.g. "generation.clone"
  nlohmann::json payload;
  int maxAttempts;
  std::chrono::seconds delay;  // run no earlier than now + delay
  std::string dedupeKey;       // non-empty: at most one queued/running job per key
  WhileRunning whileRunning;   // with dedupeKey: when the holder is running
};

class JobContext {
 public:
  virtual ~JobContext();
  virtual std::int64_t id() const = 0;
  virtual int attempt() const = 0;  // 1 on the first run
  virtual const nlohmann::json& payload() const = 0;
  // Extends the lease; long jobs call it so they are not taken over.
  virtual void heartbeat() = 0;
  // True once shutdown has begun; long jobs should stop and throw to be retried.
  virtual bool stopping() const = 0;
};

// Throwing from a handler schedules a retry (or fails the job after maxAttempts).
using JobHandler = std::function<void(JobContext&)>;

class JobQueue {
 public:
  virtual ~JobQueue();
  // Returns the job id, or 0 when a job with the same dedupeKey is already pending (a
  // running one may have been marked to run again: WhileRunning::RunAgain).
  virtual std::int64_t enqueue(const JobSpec& spec) = 0;
  // Inside a transaction: the job exists only if the transaction commits.
  virtual std::int64_t enqueue(Tx& tx, const JobSpec& spec) = 0;
};

}  // namespace docs
