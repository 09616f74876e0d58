#include <docs/testing/fake_context.hpp>

#include <cctype>
#include <charconv>
#include <stdexcept>

namespace docs::testing {

namespace {

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

void FakeConfig::set(std::string key, std::string value) {
  std::lock_guard lock(mutex_);
  values_[std::move(key)] = std::move(value);
}

void FakeConfig::declare(const std::string& key, const std::string& defaultValue) {
  std::lock_guard lock(mutex_);
  values_.try_emplace(key, defaultValue);
}

bool FakeConfig::has(std::string_view key) const {
  std::lock_guard lock(mutex_);
  return values_.find(key) != values_.end();
}

std::string FakeConfig::getString(std::string_view key) const {
  std::lock_guard lock(mutex_);
  auto found = values_.find(key);
  if (found == values_.end())
    throw std::invalid_argument("undeclared config key: " + std::string(key) +
                                " (declare it with configKey, or set it in the test's FakeContext)");
  return found->second;
}

std::int64_t FakeConfig::getInt(std::string_view key) const {
  std::string text = trim(getString(key));
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("config key " + std::string(key) + " must be an integer, got '" + text + "'");
  return value;
}

bool FakeConfig::getBool(std::string_view key) const {
  std::string text = trim(getString(key));
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off" || text.empty()) return false;
  throw std::invalid_argument("config key " + std::string(key) + " must be true or false, got '" + text + "'");
}

std::vector<std::string> FakeConfig::getList(std::string_view key) const {
  std::vector<std::string> items;
  std::string text = getString(key);
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string item =
        trim(std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) items.push_back(std::move(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace docs::testing
