#pragma once
// Layered configuration: declared defaults < JSON config file < environment.
// Every key is declared (by the core or a plugin) with a default and a description, so
// `docsd --help` can document it and the environment name can be derived from it.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "docs/config.hpp"

namespace docs::core {

struct ConfigKey {
  std::string key;
  std::string defaultValue;
  std::string description;
  std::string envName;  // DOCS_A_B_C, or a fixed name such as DATABASE_URL
  std::string owner;    // "core" or the plugin name
};

class ConfigStore final : public Config {
 public:
  // environment: name -> value (tests pass their own; main passes the process environment).
  explicit ConfigStore(std::map<std::string, std::string> environment);

  // Reads a JSON object; nested objects become dotted keys. Throws std::runtime_error.
  void loadFile(const std::string& path);
  void loadJsonText(const std::string& text, const std::string& origin);
  // Declares a key; redeclaring with the same default is allowed, another default throws.
  void declare(ConfigKey key);
  // Overrides a value (command-line flags); highest precedence.
  void set(const std::string& key, std::string value);

  bool has(std::string_view key) const override;
  std::string getString(std::string_view key) const override;
  std::int64_t getInt(std::string_view key) const override;
  bool getBool(std::string_view key) const override;
  std::vector<std::string> getList(std::string_view key) const override;

  // Where the effective value came from: "default", "file", "env", "flag".
  std::string sourceOf(std::string_view key) const;
  std::vector<ConfigKey> declaredKeys() const;
  // Keys in the file or DOCS_* variables that nobody declared (typos).
  std::vector<std::string> unknownSettings() const;

 private:
  std::optional<std::string> lookup(std::string_view key, std::string* source) const;

  mutable std::mutex mutex_;
  std::map<std::string, std::string> environment_;
  std::map<std::string, std::string, std::less<>> fileValues_;
  std::map<std::string, std::string, std::less<>> overrides_;
  std::map<std::string, ConfigKey, std::less<>> declared_;
};

// Declares the core's own keys.
void declareCoreKeys(ConfigStore& store);
std::map<std::string, std::string> processEnvironment();

}  // namespace docs::core
