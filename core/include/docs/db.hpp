#pragma once
// Database access for plugins: parameterized statements only, transactions with
// after-commit hooks. Implemented by the core on libpq.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

// A bound parameter in PostgreSQL text format (Param::bytes: binary, for bytea); a
// default-constructed one is NULL.
class Param {
 public:
  Param() = default;
  Param(std::nullptr_t) {}
  Param(std::string value) : value_(std::move(value)) {}
  Param(std::string_view value) : value_(std::string(value)) {}
  Param(const char* value) : value_(std::string(value)) {}
  Param(std::int64_t value) : value_(std::to_string(value)) {}
  Param(std::int32_t value) : value_(std::to_string(value)) {}
  Param(std::uint32_t value) : value_(std::to_string(value)) {}
  Param(bool value) : value_(value ? "t" : "f") {}
  Param(double value);
  template <class T>
  Param(const std::optional<T>& value) {
    if (value) *this = Param(*value);
  }
  // Raw bytes for a bytea parameter, sent in binary format: any byte, \0 included, no hex.
  static Param bytes(std::string_view value) {
    Param param{std::string(value)};
    param.binary_ = true;
    return param;
  }
  bool isNull() const { return !value_.has_value(); }
  bool isBinary() const { return binary_; }
  const std::string& text() const { return *value_; }

 private:
  std::optional<std::string> value_;
  bool binary_ = false;
};

using Params = std::vector<Param>;

// A failed statement. sqlState is the five-character SQLSTATE ("23505" unique violation).
class DbError : public std::runtime_error {
 public:
  DbError(const std::string& message, std::string sqlState);
  ~DbError() override;
  const std::string& sqlState() const { return sqlState_; }
  bool uniqueViolation() const { return sqlState_ == "23505"; }
  bool connectionLost() const { return sqlState_.rfind("08", 0) == 0; }

 private:
  std::string sqlState_;
};

class Result;

// One row; it shares the result's data, so it stays valid after the Result is gone.
class Row {
 public:
  Row(const Result& result, std::size_t index);
  bool isNull(std::size_t column) const;
  bool isNull(std::string_view column) const;
  const std::string& text(std::size_t column) const;
  const std::string& text(std::string_view column) const;
  std::int64_t int64(std::size_t column) const;
  std::int64_t int64(std::string_view column) const;
  bool boolean(std::string_view column) const;
  std::optional<std::string> optText(std::string_view column) const;
  // A bytea column's bytes (decoded from PostgreSQL's \x hex text); "" for NULL.
  // std::invalid_argument when the column is not hex-format bytea.
  std::string bytes(std::size_t column) const;
  std::string bytes(std::string_view column) const;

 private:
  struct Data;
  std::size_t columnIndex(std::string_view column) const;
  std::shared_ptr<const Data> data_;
  std::size_t index_;
  friend class Result;
};

// Rows copied out of libpq, so a Result outlives its connection.
class Result {
 public:
  Result();
  Result(std::vector<std::string> columns, std::vector<std::vector<std::optional<std::string>>> rows,
         std::int64_t affected);
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  Row operator[](std::size_t index) const { return Row(*this, index); }
  Row at(std::size_t index) const;
  std::int64_t affectedRows() const { return affected_; }
  const std::vector<std::string>& columns() const;

  struct Iterator {
    const Result* result;
    std::size_t index;
    Row operator*() const { return Row(*result, index); }
    Iterator& operator++() {
      ++index;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return index != other.index; }
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  friend class Row;
  std::shared_ptr<const Row::Data> data_;
  std::int64_t affected_ = 0;
};

class Tx {
 public:
  virtual ~Tx();
  virtual Result exec(std::string_view sql, const Params& params = {}) = 0;
  // Several statements separated by ';', no parameters (migrations, fixed DDL).
  virtual void execScript(std::string_view sql) = 0;
  // Runs after a successful commit (events are published after commit); dropped on rollback.
  virtual void afterCommit(std::function<void()> action) = 0;
};

class Db {
 public:
  virtual ~Db();
  // One statement in its own transaction.
  virtual Result exec(std::string_view sql, const Params& params = {}) = 0;
  // Commits when body returns, rolls back when it throws (and rethrows).
  virtual void transaction(const std::function<void(Tx&)>& body) = 0;
};

}  // namespace docs
