#pragma once
// Read-only configuration: defaults < config file < environment.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

class Config {
 public:
  virtual ~Config();
  virtual bool has(std::string_view key) const = 0;
  // Throws std::invalid_argument naming the key when it is undeclared or not convertible.
  virtual std::string getString(std::string_view key) const = 0;
  virtual std::int64_t getInt(std::string_view key) const = 0;
  virtual bool getBool(std::string_view key) const = 0;
  // A comma-separated value, trimmed, empty items dropped.
  virtual std::vector<std::string> getList(std::string_view key) const = 0;
};

// Environment variable that sets a key: "plugins.enabled" -> "DOCS_PLUGINS_ENABLED".
std::string envNameForKey(std::string_view key);

}  // namespace docs
