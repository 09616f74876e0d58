#include "db/pg_pool.hpp"

#include <libpq-fe.h>

#include <memory>

namespace docs::core {

namespace {

std::string trimmedError(PGconn* connection) {
  std::string message = connection ? PQerrorMessage(connection) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

class TxImpl final : public Tx {
 public:
  explicit TxImpl(PGconn* connection) : connection_(connection) {}
  Result exec(std::string_view sql, const Params& params) override { return execOn(connection_, sql, params); }
  void execScript(std::string_view sql) override { execScriptOn(connection_, sql); }
  void afterCommit(std::function<void()> action) override { afterCommit_.push_back(std::move(action)); }
  std::vector<std::function<void()>> takeAfterCommit() { return std::move(afterCommit_); }

 private:
  PGconn* connection_;
  std::vector<std::function<void()>> afterCommit_;
};

}  // namespace

// Returns its connection to the pool, or closes it when it broke.
class PooledConnection {
 public:
  explicit PooledConnection(PgPool& pool) : pool_(pool), connection_(pool.acquire()) {}
  ~PooledConnection() { pool_.release(connection_); }
  PGconn* get() const { return connection_; }

 private:
  PgPool& pool_;
  PGconn* connection_;
};

PGconn* connectWith(const PgPoolOptions& options) {
  std::string timeout = "-c statement_timeout=" + std::to_string(options.statementTimeoutMs);
  const char* keywords[] = {"dbname", "options", "application_name", "connect_timeout", nullptr};
  const char* values[] = {options.url.empty() ? "postgres" : options.url.c_str(), timeout.c_str(),
                          options.applicationName.c_str(), "10", nullptr};
  PGconn* connection = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (!connection || PQstatus(connection) != CONNECTION_OK) {
    std::string message = "cannot connect to PostgreSQL: " + trimmedError(connection);
    if (connection) PQfinish(connection);
    throw DbError(message, "08001");
  }
  return connection;
}

void execScriptOn(PGconn* connection, std::string_view sql) {
  std::string script(sql);
  PGresult* result = PQexec(connection, script.c_str());
  ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_EMPTY_QUERY) {
    std::string state = "XX000";
    if (result && PQresultErrorField(result, PG_DIAG_SQLSTATE)) state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    std::string message = result ? PQresultErrorMessage(result) : trimmedError(connection);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    PQclear(result);
    throw DbError(message, state);
  }
  PQclear(result);
}

Result execOn(PGconn* connection, std::string_view sql, const Params& params) {
  std::string statement(sql);
  std::vector<const char*> values;
  values.reserve(params.size());
  // Lengths and formats matter only for binary (bytea) parameters; text ones end at '\0'.
  std::vector<int> lengths, formats;
  bool anyBinary = false;
  lengths.reserve(params.size());
  formats.reserve(params.size());
  for (const auto& param : params) {
    values.push_back(param.isNull() ? nullptr : param.text().c_str());
    lengths.push_back(param.isNull() ? 0 : static_cast<int>(param.text().size()));
    formats.push_back(param.isBinary() ? 1 : 0);
    anyBinary = anyBinary || param.isBinary();
  }
  std::unique_ptr<PGresult, decltype(&PQclear)> result(
      PQexecParams(connection, statement.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                   anyBinary ? lengths.data() : nullptr, anyBinary ? formats.data() : nullptr, 0),
      &PQclear);
  ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    std::string state;
    if (result) {
      const char* code = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
      if (code) state = code;
    }
    if (PQstatus(connection) != CONNECTION_OK) state = "08006";
    std::string message = result ? PQresultErrorMessage(result.get()) : trimmedError(connection);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    if (message.empty()) message = trimmedError(connection);
    throw DbError(message, state.empty() ? "XX000" : state);
  }
  int columns = PQnfields(result.get());
  int rows = PQntuples(result.get());
  std::vector<std::string> names;
  names.reserve(columns);
  for (int c = 0; c < columns; ++c) names.emplace_back(PQfname(result.get(), c));
  std::vector<std::vector<std::optional<std::string>>> data(rows);
  for (int r = 0; r < rows; ++r) {
    data[r].reserve(columns);
    for (int c = 0; c < columns; ++c) {
      if (PQgetisnull(result.get(), r, c)) data[r].emplace_back(std::nullopt);
      else data[r].emplace_back(std::string(PQgetvalue(result.get(), r, c), PQgetlength(result.get(), r, c)));
    }
  }
  const char* tuples = PQcmdTuples(result.get());
  std::int64_t affected = tuples && *tuples ? std::stoll(tuples) : 0;
  return Result(std::move(names), std::move(data), affected);
}

PgPool::PgPool(PgPoolOptions options) : options_(std::move(options)) {}

PgPool::~PgPool() {
  std::lock_guard lock(mutex_);
  for (PGconn* connection : idle_) PQfinish(connection);
  idle_.clear();
}

PGconn* PgPool::acquire() {
  std::unique_lock lock(mutex_);
  auto deadline = std::chrono::steady_clock::now() + options_.acquireTimeout;
  if (idle_.empty() && open_ >= options_.size) {
    ++waits_;
    auto waitStarted = std::chrono::steady_clock::now();
    auto account = [&] {
      waitSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStarted).count();
    };
    while (idle_.empty() && open_ >= options_.size) {
      if (available_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() && open_ >= options_.size) {
        account();
        throw DbError("no database connection became free within the pool timeout", "53300");
      }
    }
    account();
  }
  if (!idle_.empty()) {
    PGconn* connection = idle_.back();
    idle_.pop_back();
    if (PQstatus(connection) == CONNECTION_OK) return connection;
    PQfinish(connection);  // broken while idle: replace it below
    --open_;
  }
  ++open_;
  lock.unlock();
  try {
    return connectWith(options_);
  } catch (...) {
    std::lock_guard relock(mutex_);
    --open_;
    available_.notify_one();
    throw;
  }
}

void PgPool::release(PGconn* connection) {
  bool healthy = PQstatus(connection) == CONNECTION_OK && PQtransactionStatus(connection) == PQTRANS_IDLE;
  std::lock_guard lock(mutex_);
  if (healthy) {
    idle_.push_back(connection);
  } else {
    PQfinish(connection);
    --open_;
  }
  available_.notify_one();
}

PoolStats PgPool::stats() const {
  std::lock_guard lock(mutex_);
  return {options_.size, open_, open_ - static_cast<int>(idle_.size()), waits_, waitSeconds_};
}

int PgPool::openConnections() const {
  std::lock_guard lock(mutex_);
  return open_;
}

PGconn* PgPool::connectDedicated() const { return connectWith(options_); }

Result PgPool::exec(std::string_view sql, const Params& params) {
  PooledConnection connection(*this);
  return execOn(connection.get(), sql, params);
}

void PgPool::transaction(const std::function<void(Tx&)>& body) {
  std::vector<std::function<void()>> afterCommit;
  {
    PooledConnection connection(*this);
    execOn(connection.get(), "BEGIN", {});
    TxImpl tx(connection.get());
    try {
      body(tx);
      execOn(connection.get(), "COMMIT", {});
    } catch (...) {
      if (PQstatus(connection.get()) == CONNECTION_OK) {
        PGresult* rollback = PQexec(connection.get(), "ROLLBACK");
        PQclear(rollback);
      }
      throw;
    }
    afterCommit = tx.takeAfterCommit();
  }
  for (auto& action : afterCommit) action();
}

}  // namespace docs::core
