#pragma once
// Configuration keys that several plugins read, each declared once here so their name,
// default and description cannot drift apart. A plugin that reads one declares it with
// declare(registry, kKey) in configure(); the host accepts the same key from several plugins
// (`docsd help` lists it once).

#include <string>
#include <string_view>

#include <docs/registry.hpp>

namespace docs {

struct ConfigKeySpec {
  std::string_view key;
  std::string_view defaultValue;
  std::string_view description;
};

// The GitHub (or GitHub Enterprise) web address: sign-in, repository projects, the App,
// generation's clones and the MCP tools' links.
inline constexpr ConfigKeySpec kGithubUrl{"github.url", "https://github.com",
                                          "GitHub web base URL (GitHub Enterprise: https://ghe.example.com)."};

inline void declare(Registry& registry, const ConfigKeySpec& spec) {
  registry.configKey(std::string(spec.key), std::string(spec.defaultValue), std::string(spec.description));
}

}  // namespace docs
