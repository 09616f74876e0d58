#include "docs/db.hpp"

#include <charconv>
#include <cstdio>

#include "docs/codec/codec.hpp"

namespace docs {

Param::Param(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  value_ = std::string(buffer, ec == std::errc() ? end : buffer);
}

DbError::DbError(const std::string& message, std::string sqlState)
    : std::runtime_error(message), sqlState_(std::move(sqlState)) {}
DbError::~DbError() = default;

struct Row::Data {
  std::vector<std::string> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

Result::Result() : data_(std::make_shared<Row::Data>()) {}

Result::Result(std::vector<std::string> columns, std::vector<std::vector<std::optional<std::string>>> rows,
               std::int64_t affected)
    : data_(std::make_shared<Row::Data>(Row::Data{std::move(columns), std::move(rows)})), affected_(affected) {}

std::size_t Result::size() const { return data_->rows.size(); }
const std::vector<std::string>& Result::columns() const { return data_->columns; }

Row Result::at(std::size_t index) const {
  if (index >= size()) throw std::out_of_range("result row " + std::to_string(index) + " out of range");
  return Row(*this, index);
}

Row::Row(const Result& result, std::size_t index) : data_(result.data_), index_(index) {}

std::size_t Row::columnIndex(std::string_view column) const {
  const auto& columns = data_->columns;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == column) return i;
  throw std::out_of_range("result has no column " + std::string(column));
}

bool Row::isNull(std::size_t column) const { return !data_->rows.at(index_).at(column).has_value(); }
bool Row::isNull(std::string_view column) const { return isNull(columnIndex(column)); }

const std::string& Row::text(std::size_t column) const {
  const auto& cell = data_->rows.at(index_).at(column);
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
  return data_->rows.at(index_).at(i);
}

std::string Row::bytes(std::size_t column) const {
  const std::string& t = text(column);
  if (t.empty()) return {};
  std::optional<std::string> decoded;
  if (t.size() >= 2 && t[0] == '\\' && t[1] == 'x') decoded = codec::hexDecode(std::string_view(t).substr(2));
  if (!decoded) throw std::invalid_argument("column " + std::to_string(column) + " is not bytea in hex format");
  return *decoded;
}
std::string Row::bytes(std::string_view column) const { return bytes(columnIndex(column)); }

Tx::~Tx() = default;
Db::~Db() = default;

}  // namespace docs
