#include "plugins/plugin_loader.hpp"

#include <boost/dll/library_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "docs/plugin.hpp"

namespace fs = std::filesystem;

namespace docs::core {

namespace {

// Libraries stay loaded for the life of the process: plugin code may still be referenced
// by objects (vtables, std::function targets) until exit.
std::vector<boost::dll::shared_library>& loadedLibraries() {
  static auto* libraries = new std::vector<boost::dll::shared_library>();
  return *libraries;
}
std::mutex gLoadMutex;

// 31102 -> "3.11.2".
std::string jsonVersionText(std::uint32_t version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

std::vector<std::string> splitList(const char* text) {
  std::vector<std::string> items;
  if (!text) return items;
  std::string current;
  for (const char* p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      auto begin = current.find_first_not_of(' ');
      auto end = current.find_last_not_of(' ');
      if (begin != std::string::npos) items.push_back(current.substr(begin, end - begin + 1));
      current.clear();
      if (*p == '\0') break;
    } else {
      current.push_back(*p);
    }
  }
  return items;
}

}  // namespace

PluginCandidate inspectPlugin(const std::string& path) {
  PluginCandidate candidate;
  candidate.path = path;
  candidate.name = fs::path(path).stem().string();
  if (!fs::exists(path)) {
    candidate.problem = "file not found: " + path;
    return candidate;
  }
  // 1. The symbol table, read without loading: which manifest ABI does it export?
  std::vector<std::string> symbols;
  try {
    boost::dll::library_info info(fs::path(path), /*throw_if_not_native=*/true);
    symbols = info.symbols();
  } catch (const std::exception& error) {
    candidate.problem = "not a loadable shared library (" + std::string(error.what()) + ")";
    return candidate;
  }
  const std::string expected = DOCS_PLUGIN_MANIFEST_PREFIX + std::to_string(kPluginAbi);
  std::string found;
  for (const auto& symbol : symbols)
    if (symbol.rfind(DOCS_PLUGIN_MANIFEST_PREFIX, 0) == 0) found = symbol;
  if (found.empty()) {
    candidate.problem =
        "exports no plugin manifest (symbol " + expected + " is missing; was it built with DOCS_PLUGIN?)";
    return candidate;
  }
  if (found != expected) {
    candidate.problem = "built for plugin ABI " + found.substr(std::strlen(DOCS_PLUGIN_MANIFEST_PREFIX)) +
                        ", but this docsd has plugin ABI " + std::to_string(kPluginAbi) +
                        "; rebuild it against "
                        "this docsd's headers";
    return candidate;
  }
  // 2. Load (local symbols, resolved now) and compare the manifest field by field.
  std::lock_guard lock(gLoadMutex);
  try {
    boost::dll::shared_library library(fs::path(path),
                                       boost::dll::load_mode::rtld_local | boost::dll::load_mode::rtld_now);
    const auto& manifest = library.get<const PluginManifest>(expected);
    const PluginManifest& host = kHostManifestTemplate;
    if (manifest.abi != host.abi || manifest.manifestSize != host.manifestSize) {
      candidate.problem = "manifest does not match this docsd (abi " + std::to_string(manifest.abi) + ", size " +
                          std::to_string(manifest.manifestSize) + ")";
      return candidate;
    }
    if (manifest.cxxStandard != host.cxxStandard || manifest.libstdcxxDualAbi != host.libstdcxxDualAbi ||
        manifest.pointerSize != host.pointerSize) {
      candidate.problem = "built with an incompatible compiler setup (C++ " + std::to_string(manifest.cxxStandard) +
                          ", dual ABI " + std::to_string(manifest.libstdcxxDualAbi) + "; docsd: C++ " +
                          std::to_string(host.cxxStandard) + ", dual ABI " + std::to_string(host.libstdcxxDualAbi) +
                          ")";
      return candidate;
    }
    if (manifest.jsonVersion != host.jsonVersion) {
      candidate.problem = "built with nlohmann/json " + jsonVersionText(manifest.jsonVersion) +
                          ", but this docsd uses " + jsonVersionText(host.jsonVersion) +
                          "; rebuild it against the same nlohmann/json";
      return candidate;
    }
    if (!manifest.name || !*manifest.name || !manifest.create) {
      candidate.problem = "manifest has no name or no factory";
      return candidate;
    }
    candidate.name = manifest.name;
    candidate.version = manifest.version ? manifest.version : "";
    candidate.description = manifest.description ? manifest.description : "";
    candidate.dependencies = splitList(manifest.dependencies);
    candidate.optIn = (manifest.flags & kPluginOptIn) != 0;
    candidate.manifest = &manifest;
    candidate.loadable = true;
    loadedLibraries().push_back(std::move(library));
  } catch (const std::exception& error) {
    candidate.problem = std::string("cannot be loaded: ") + error.what();
  }
  return candidate;
}

std::vector<PluginCandidate> inspectPluginDir(const std::string& directory) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".so") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<PluginCandidate> candidates;
  for (const auto& path : paths) candidates.push_back(inspectPlugin(path));
  return candidates;
}

std::unique_ptr<Plugin> instantiate(const PluginCandidate& candidate) {
  if (!candidate.loadable || !candidate.manifest)
    throw PluginLoadError("plugin " + candidate.name + " cannot be loaded: " + candidate.problem);
  try {
    std::unique_ptr<Plugin> plugin(candidate.manifest->create());
    if (!plugin) throw PluginLoadError("plugin " + candidate.name + ": its factory returned nothing");
    return plugin;
  } catch (const PluginLoadError&) {
    throw;
  } catch (const std::exception& error) {
    throw PluginLoadError("plugin " + candidate.name + ": its factory threw: " + error.what());
  }
}

namespace {

bool listsAll(const std::vector<std::string>& enabled) {
  return enabled.empty() || std::find(enabled.begin(), enabled.end(), "all") != enabled.end();
}

bool names(const std::vector<std::string>& enabled, const std::string& name) {
  return std::find(enabled.begin(), enabled.end(), name) != enabled.end();
}

}  // namespace

std::string whyNotEnabled(const PluginCandidate& candidate, const std::vector<std::string>& enabled) {
  if (names(enabled, candidate.name)) return "";
  if (listsAll(enabled)) {
    if (!candidate.optIn) return "";
    return "opt-in: plugins.enabled=all leaves it out (name it: plugins.enabled=all," + candidate.name + ")";
  }
  return "disabled by plugins.enabled";
}

std::vector<PluginCandidate> selectAndOrder(const std::vector<PluginCandidate>& candidates,
                                            const std::vector<std::string>& enabled,
                                            std::vector<std::string>* skipped) {
  bool all = listsAll(enabled);
  bool none = enabled.size() == 1 && enabled[0] == "none";
  std::map<std::string, const PluginCandidate*> byName;
  for (const auto& candidate : candidates) {
    if (byName.count(candidate.name))
      throw PluginLoadError("two plugin files are named " + candidate.name + ": " + byName[candidate.name]->path +
                            " and " + candidate.path);
    byName[candidate.name] = &candidate;
  }
  std::set<std::string> wanted;
  if (all) {
    for (const auto& candidate : candidates)
      if (candidate.loadable && !candidate.optIn) wanted.insert(candidate.name);
  }
  if (!none) {
    for (const auto& name : enabled) {
      if (name == "all") continue;
      auto it = byName.find(name);
      if (it == byName.end()) throw PluginLoadError("plugin " + name + " is enabled but no plugin file provides it");
      if (!it->second->loadable) throw PluginLoadError("plugin " + name + " cannot be loaded: " + it->second->problem);
      wanted.insert(name);
    }
  }
  if (skipped)
    for (const auto& candidate : candidates)
      if (!wanted.count(candidate.name))
        skipped->push_back(candidate.name + ": " +
                           (candidate.loadable ? whyNotEnabled(candidate, enabled) : candidate.problem));
  for (const auto& name : wanted) {
    for (const auto& dependency : byName[name]->dependencies) {
      if (wanted.count(dependency)) continue;
      auto it = byName.find(dependency);
      if (it == byName.end())
        throw PluginLoadError("plugin " + name + " needs plugin " + dependency + ", which is not installed");
      if (!it->second->loadable)
        throw PluginLoadError("plugin " + name + " needs plugin " + dependency +
                              ", which cannot be loaded: " + it->second->problem);
      throw PluginLoadError("plugin " + name + " needs plugin " + dependency + ", which is " +
                            (it->second->optIn && all
                                 ? "opt-in and not named in plugins.enabled (name it: all," + dependency + ")"
                                 : std::string("disabled by plugins.enabled")));
    }
  }
  // Kahn's algorithm, taking ready plugins in name order so the order is stable.
  std::map<std::string, int> pending;
  for (const auto& name : wanted) pending[name] = static_cast<int>(byName[name]->dependencies.size());
  std::vector<PluginCandidate> ordered;
  std::set<std::string> done;
  while (ordered.size() < wanted.size()) {
    std::string next;
    for (const auto& [name, count] : pending)
      if (!done.count(name) && count == 0) {
        next = name;
        break;
      }
    if (next.empty()) {
      std::string cycle;
      for (const auto& [name, count] : pending)
        if (!done.count(name)) cycle += (cycle.empty() ? "" : ", ") + name;
      throw PluginLoadError("plugin dependencies form a cycle among: " + cycle);
    }
    done.insert(next);
    ordered.push_back(*byName[next]);
    for (auto& [name, count] : pending)
      for (const auto& dependency : byName[name]->dependencies)
        if (dependency == next) --count;
  }
  return ordered;
}

}  // namespace docs::core
