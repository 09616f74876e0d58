#pragma once
// Finds, checks and loads plugin libraries. The checks come before any plugin code runs:
// the ABI number is read from the exported symbol's name in the ELF symbol table; then the
// manifest's fields are compared with the host's. Loaded libraries are never unloaded.

#include <memory>
#include <string>
#include <vector>

#include "docs/abi.hpp"

namespace docs {
class Plugin;
}

namespace docs::core {

struct PluginCandidate {
  std::string path;
  std::string name;  // from the manifest once loaded; file stem before
  std::string version;
  std::string description;
  std::vector<std::string> dependencies;
  bool optIn = false;     // kPluginOptIn: loads only when plugins.enabled names it
  bool loadable = false;  // passed every check
  std::string problem;    // why not, in one sentence
  const PluginManifest* manifest = nullptr;
};

class PluginLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Examines one library file: symbol scan, then load and manifest comparison.
PluginCandidate inspectPlugin(const std::string& path);
// Every *.so in a directory, sorted by file name.
std::vector<PluginCandidate> inspectPluginDir(const std::string& directory);
// Calls the manifest's factory. Throws PluginLoadError naming the plugin.
std::unique_ptr<Plugin> instantiate(const PluginCandidate& candidate);

// Why plugins.enabled leaves a loadable candidate out, or "" when it selects it. `enabled`
// is the configured list: empty or "all" (every plugin but the opt-in ones), "all" plus
// names (those opt-in plugins too), names alone, or "none".
std::string whyNotEnabled(const PluginCandidate& candidate, const std::vector<std::string>& enabled);

// Which candidates run, in dependency order. `enabled` is the configured list (see
// whyNotEnabled). Throws PluginLoadError for an enabled plugin that is missing or not loadable, a
// missing or disabled dependency, or a cycle. `skipped` receives "name: reason" lines.
std::vector<PluginCandidate> selectAndOrder(const std::vector<PluginCandidate>& candidates,
                                            const std::vector<std::string>& enabled,
                                            std::vector<std::string>* skipped = nullptr);

}  // namespace docs::core
