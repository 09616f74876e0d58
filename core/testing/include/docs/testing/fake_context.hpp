#pragma once
// The Context a plugin meets in a unit test: configuration the test sets, an event bus and
// a job queue that record what the plugin sends, a logger that keeps its lines, and the
// database the test gives (none unless it gives one). Not part of the plugin ABI.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <docs/config.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/http.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>

namespace docs::testing {

// Configuration as docsd gives it: a key the plugin declared (Registry::configKey) reads
// its default until the test sets it; set() makes any other key readable too (the core's,
// such as server.public_url). Reading an unknown key, or a value of the wrong type, throws
// std::invalid_argument naming the key, and booleans and lists read as docsd reads them.
class FakeConfig final : public Config {
 public:
  void set(std::string key, std::string value);
  // What Registry::configKey does here: the default, unless the test set a value first.
  void declare(const std::string& key, const std::string& defaultValue);

  bool has(std::string_view key) const override;
  std::string getString(std::string_view key) const override;
  std::int64_t getInt(std::string_view key) const override;
  bool getBool(std::string_view key) const override;
  std::vector<std::string> getList(std::string_view key) const override;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string, std::less<>> values_;
};

// While FakeHost runs a plugin's configure(), the database, job queue and event bus refuse
// to be used, as docsd's do: std::logic_error "plugin X used the job queue during configure()".
struct ConfigurePhase {
  std::string plugin;
  bool active = false;
  void refuse(const char* what) const;  // throws while active
};

struct PublishedEvent {
  std::string topic;
  Json payload;
  bool afterCommit = false;  // through publishAfterCommit: recorded once its transaction committed
};

// Records every event instead of delivering it (FakeRegistry::deliverPublished delivers
// them to the plugin's own subscribers). Thread-safe.
class CapturingEventBus final : public EventBus {
 public:
  explicit CapturingEventBus(const ConfigurePhase* phase = nullptr) : phase_(phase) {}
  void publish(std::string_view topic, const Json& payload) override;
  // Recorded when tx commits (Tx::afterCommit); a rollback records nothing.
  void publishAfterCommit(Tx& tx, std::string_view topic, const Json& payload) override;

  std::vector<PublishedEvent> published() const;
  // The payloads published under one topic, in order.
  std::vector<Json> payloadsOf(std::string_view topic) const;
  // Returns what was recorded and forgets it.
  std::vector<PublishedEvent> take();

 private:
  const ConfigurePhase* phase_;
  mutable std::mutex mutex_;
  std::vector<PublishedEvent> published_;
};

struct EnqueuedJob {
  std::int64_t id = 0;
  JobSpec spec;
  bool inTransaction = false;  // enqueue(tx, ...): recorded once the transaction committed
};

// Records every job instead of running it (FakeRegistry::runEnqueuedJobs runs them with the
// plugin's handlers). Ids count from 1; a non-empty dedupeKey held by a recorded job answers
// 0, as docsd's queue does for a pending one. Thread-safe.
class CapturingJobQueue final : public JobQueue {
 public:
  explicit CapturingJobQueue(const ConfigurePhase* phase = nullptr) : phase_(phase) {}
  std::int64_t enqueue(const JobSpec& spec) override;
  // The id is given at once; the job is recorded when tx commits, not at all on rollback.
  std::int64_t enqueue(Tx& tx, const JobSpec& spec) override;

  std::vector<EnqueuedJob> enqueued() const;
  // Returns what was recorded and forgets it (its dedupe keys are free again).
  std::vector<EnqueuedJob> take();

 private:
  bool dedupeKeyHeld(const std::string& key) const;  // under mutex_
  const ConfigurePhase* phase_;
  mutable std::mutex mutex_;
  std::vector<EnqueuedJob> enqueued_;
  std::int64_t nextId_ = 1;
};

struct LogLine {
  LogLevel level = LogLevel::Info;
  std::string message;
  Json fields;
};

// Keeps every line the plugin logs. Thread-safe.
class CapturingLogger final : public Logger {
 public:
  void log(LogLevel level, std::string_view message, const Json& fields) override;
  std::vector<LogLine> lines() const;
  bool logged(std::string_view message) const;

 private:
  mutable std::mutex mutex_;
  std::vector<LogLine> lines_;
};

// A Db handle that forwards to the database the test gave, and throws std::logic_error
// saying so while there is none: like docsd's, it can be taken in configure() and kept.
class ForwardingDb final : public Db {
 public:
  explicit ForwardingDb(const ConfigurePhase& phase) : phase_(phase) {}
  void use(Db* target) { target_ = target; }
  bool connected() const { return target_ != nullptr; }
  Result exec(std::string_view sql, const Params& params) override;
  void transaction(const std::function<void(Tx&)>& body) override;

 private:
  Db& target() const;
  const ConfigurePhase& phase_;
  Db* target_ = nullptr;
};

class FakeContext final : public Context {
 public:
  explicit FakeContext(std::string pluginName = "plugin");
  FakeContext(const FakeContext&) = delete;
  FakeContext& operator=(const FakeContext&) = delete;

  const std::string& pluginName() const { return phase_.plugin; }
  const Config& config() const override { return config_; }
  FakeConfig& settings() { return config_; }
  // Shorthand for settings().set(key, value).
  void set(std::string key, std::string value) { config_.set(std::move(key), std::move(value)); }

  // The plugin's database from now on (the test keeps it alive), e.g. a pool on a fresh
  // test database. Without one, db() still answers a handle, whose use throws.
  void useDatabase(Db& database) { db_.use(&database); }
  bool hasDatabase() const { return db_.connected(); }
  void setDataDir(std::string dir) { dataDir_ = std::move(dir); }
  // FakeHost sets it around configure() (see ConfigurePhase).
  void setConfiguring(bool configuring) { phase_.active = configuring; }

  Db& db() override { return db_; }
  CapturingJobQueue& jobs() override { return jobs_; }
  CapturingEventBus& events() override { return events_; }
  CapturingLogger& logger() override { return logger_; }
  // "" unless the test set one.
  const std::string& dataDir() const override { return dataDir_; }

 private:
  ConfigurePhase phase_;
  FakeConfig config_;
  ForwardingDb db_{phase_};
  CapturingJobQueue jobs_{&phase_};
  CapturingEventBus events_{&phase_};
  CapturingLogger logger_;
  std::string dataDir_;
};

}  // namespace docs::testing
