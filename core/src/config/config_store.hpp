#pragma once
// Layered configuration: declared defaults < JSON config file < environment < flags.
// A secret may come from a file instead: DOCS_A_B_FILE=/run/secrets/x (or DATABASE_URL_FILE)
// reads the key's value from that file (Docker and systemd credentials).
// Every key is declared (by the core or a plugin) with a default and a description, so
// `docsd --help` can document it and the environment name can be derived from it.

#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "docs/config.hpp"

namespace docs::core {

// A setting that cannot be read or used: an unreadable or malformed file, a value of the
// wrong type, a secret file that cannot be read. docsd exits 78 (EX_CONFIG) on one.
class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

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

  // Where the effective value came from: "default", "file", "env", "env file", "flag".
  std::string sourceOf(std::string_view key) const;
  // Whether a key holds a secret (passwords, tokens, keys, a database URL's password):
  // `docsd config` masks those.
  static bool isSecretKey(std::string_view key);
  // The value with its secret part masked ("postgres://u:***@h/db", "***"), for printing.
  static std::string masked(std::string_view key, const std::string& value);
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
