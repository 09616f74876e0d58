#pragma once
// Background threads of the core: the NOTIFY listener (job wake-ups, cross-node events)
// and the scheduler of periodic tasks (once per interval across all nodes).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "docs/logger.hpp"

namespace docs::core {

class PgPool;

class NotificationListener {
 public:
  using Callback = std::function<void(const std::string& channel, const std::string& payload)>;
  NotificationListener(PgPool& pool, std::vector<std::string> channels, Callback callback,
                       std::shared_ptr<Logger> logger);
  ~NotificationListener();
  void start();
  void stop();
  // Waits until the first LISTEN is in place, so a node that reports ready also hears
  // what other nodes publish from then on. False when the timeout passed first.
  bool waitUntilListening(std::chrono::milliseconds timeout);

 private:
  void loop();
  void markListening();
  PgPool& pool_;
  std::vector<std::string> channels_;
  std::mutex mutex_;
  std::condition_variable listeningChanged_;
  bool listening_ = false;
  Callback callback_;
  std::shared_ptr<Logger> logger_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

struct PeriodicTask {
  std::string name;
  std::chrono::milliseconds interval;
  bool singleton = true;
  std::function<void()> run;
};

class Scheduler {
 public:
  Scheduler(PgPool& pool, std::shared_ptr<Logger> logger);
  ~Scheduler();
  void add(PeriodicTask task);
  void start();
  void stop();

 private:
  void loop();
  bool claimRun(const PeriodicTask& task);
  PgPool& pool_;
  std::shared_ptr<Logger> logger_;
  std::vector<PeriodicTask> tasks_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace docs::core
