#pragma once
// A libpq connection pool implementing docs::Db. Connections are made lazily, carry a
// statement timeout, and a connection found broken is dropped and replaced.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "docs/db.hpp"

typedef struct pg_conn PGconn;

namespace docs::core {

struct PgPoolOptions {
  std::string url;
  int size = 8;
  int statementTimeoutMs = 30000;
  std::chrono::milliseconds acquireTimeout{30000};
  std::string applicationName = "docsd";
};

struct PoolStats {
  int size = 0;             // the most connections the pool opens
  int open = 0;             // open now
  int inUse = 0;            // lent out now
  std::uint64_t waits = 0;  // acquisitions that found every connection busy
  double waitSeconds = 0;   // time spent in those waits
};

class PgPool final : public Db {
 public:
  explicit PgPool(PgPoolOptions options);
  ~PgPool() override;
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  Result exec(std::string_view sql, const Params& params = {}) override;
  void transaction(const std::function<void(Tx&)>& body) override;

  // Opens a fresh connection outside the pool (LISTEN, advisory locks held for long).
  PGconn* connectDedicated() const;
  const PgPoolOptions& options() const { return options_; }
  // Connections currently open (for tests and metrics).
  int openConnections() const;
  PoolStats stats() const;

 private:
  friend class PooledConnection;
  PGconn* acquire();
  void release(PGconn* connection);

  PgPoolOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable available_;
  std::vector<PGconn*> idle_;
  int open_ = 0;
  std::uint64_t waits_ = 0;
  double waitSeconds_ = 0;
};

// Runs one statement on a raw connection; throws DbError. Shared by the pool and by
// components holding a dedicated connection.
Result execOn(PGconn* connection, std::string_view sql, const Params& params);
// Runs a multi-statement script with the simple query protocol; throws DbError.
void execScriptOn(PGconn* connection, std::string_view sql);
// Connects with the pool's options; throws DbError with a readable message.
PGconn* connectWith(const PgPoolOptions& options);

}  // namespace docs::core
