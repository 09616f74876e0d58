#include "docs/db.hpp"

#include <charconv>
#include <cstdio>

namespace docs {

Param::Param(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  value_ = std::string(buffer, ec == std::errc() ? end : buffer);
}

DbError::DbError(std::string message, std::string sqlState)
    : std::runtime_error(std::move(message)), sqlState_(std::move(sqlState)) {}
DbError::~DbError() = default;

Result::Result(std::vector<std::string> columns, std::vector<std::vector<std::optional<std::string>>> rows,
               std::int64_t affected)
    : columns_(std::move(columns)), rows_(std::move(rows)), affected_(affected) {}

Row Result::at(std::size_t index) const {
  if (index >= rows_.size()) throw std::out_of_range("result row " + std::to_string(index) + " out of range");
  return Row(*this, index);
}

std::size_t Row::columnIndex(std::string_view column) const {
  const auto& columns = result_->columns_;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return i;
  throw std::out_of_range("result has no column " + std::string(column));
}

bool Row::isNull(std::size_t column) const { return !result_->rows_.at(index_).at(column).has_value(); }
bool Row::isNull(std::string_view column) const { return isNull(columnIndex(column)); }

const std::string& Row::text(std::size_t column) const {
  const auto& cell = result_->rows_.at(index_).at(column);
  static const std::string kEmpty;
  return cell ? *cell : kEmpty;
}
const std::string& Row::text(std::string_view column) const { return text(columnIndex(column)); }

std::int64_t Row::int64(std::size_t column) const {
  const std::string& t = text(column);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size())
    throw std::invalid_argument("column " + std::to_string(column) + " is not an integer: '" + t + "'");
  return value;
}
std::int64_t Row::int64(std::string_view column) const { return int64(columnIndex(column)); }

bool Row::boolean(std::string_view column) const { return text(column) == "t"; }

std::optional<std::string> Row::optText(std::string_view column) const {
  std::size_t i = columnIndex(column);
  return result_->rows_.at(index_).at(i);
}

Tx::~Tx() = default;
Db::~Db() = default;

}  // namespace docs
