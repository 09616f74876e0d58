#include "jobs/background.hpp"

#include <libpq-fe.h>
#include <sys/select.h>

#include <map>

#include "db/pg_pool.hpp"

namespace docs::core {

NotificationListener::NotificationListener(PgPool& pool, std::vector<std::string> channels, Callback callback,
                                           std::shared_ptr<Logger> logger)
    : pool_(pool), channels_(std::move(channels)), callback_(std::move(callback)), logger_(std::move(logger)) {}

NotificationListener::~NotificationListener() { stop(); }

void NotificationListener::start() {
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void NotificationListener::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

bool NotificationListener::waitUntilListening(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return listeningChanged_.wait_for(lock, timeout, [&] { return listening_; });
}

void NotificationListener::markListening() {
  std::lock_guard lock(mutex_);
  listening_ = true;
  listeningChanged_.notify_all();
}

void NotificationListener::loop() {
  PGconn* connection = nullptr;
  int backoffMs = 200;
  while (!stopping_) {
    if (!connection) {
      try {
        connection = pool_.connectDedicated();
        for (const auto& channel : channels_) execOn(connection, "LISTEN " + channel, {});
        backoffMs = 200;
        markListening();
        // Anything sent while we were not listening is picked up by the callers' own
        // polling (jobs poll; events are best effort across nodes).
      } catch (const std::exception& error) {
        if (connection) PQfinish(connection);
        connection = nullptr;
        if (logger_) logger_->warn("notification listener cannot connect", {{"error", error.what()}});
        for (int waited = 0; waited < backoffMs && !stopping_; waited += 50)
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        backoffMs = std::min(backoffMs * 2, 5000);
        continue;
      }
    }
    int fd = PQsocket(connection);
    fd_set readable;
    FD_ZERO(&readable);
    FD_SET(fd, &readable);
    timeval timeout{0, 200 * 1000};
    int ready = ::select(fd + 1, &readable, nullptr, nullptr, &timeout);
    if (ready < 0) continue;
    if (ready > 0 && !PQconsumeInput(connection)) {
      if (logger_) logger_->warn("notification listener lost its connection; reconnecting");
      PQfinish(connection);
      connection = nullptr;
      continue;
    }
    while (PGnotify* notify = PQnotifies(connection)) {
      std::string channel = notify->relname, payload = notify->extra ? notify->extra : "";
      PQfreemem(notify);
      try {
        callback_(channel, payload);
      } catch (const std::exception& error) {
        if (logger_) logger_->error("notification callback failed", {{"error", error.what()}});
      }
    }
  }
  if (connection) PQfinish(connection);
}

Scheduler::Scheduler(PgPool& pool, std::shared_ptr<Logger> logger) : pool_(pool), logger_(std::move(logger)) {}
Scheduler::~Scheduler() { stop(); }

void Scheduler::add(PeriodicTask task) { tasks_.push_back(std::move(task)); }

void Scheduler::start() {
  if (tasks_.empty()) return;
  stopping_ = false;
  thread_ = std::thread([this] { loop(); });
}

void Scheduler::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

bool Scheduler::claimRun(const PeriodicTask& task) {
  if (!task.singleton) return true;
  // One row per task: whoever moves last_run forward runs it, so a cluster runs the task
  // once per interval however many nodes there are.
  auto result = pool_.exec(
      "INSERT INTO periodic_runs (name, last_run) VALUES ($1, now())"
      " ON CONFLICT (name) DO UPDATE SET last_run = now()"
      " WHERE periodic_runs.last_run <= now() - make_interval(secs => $2::double precision / 1000) + interval '50 ms'"
      " RETURNING name",
      {task.name, static_cast<std::int64_t>(task.interval.count())});
  return !result.empty();
}

void Scheduler::loop() {
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> next(tasks_.size(), Clock::now());
  while (!stopping_) {
    auto now = Clock::now();
    for (std::size_t i = 0; i < tasks_.size() && !stopping_; ++i) {
      if (now < next[i]) continue;
      next[i] = now + tasks_[i].interval;
      try {
        if (claimRun(tasks_[i])) tasks_[i].run();
      } catch (const std::exception& error) {
        if (logger_) logger_->error("periodic task failed", {{"task", tasks_[i].name}, {"error", error.what()}});
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace docs::core
