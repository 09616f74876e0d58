#pragma once
// Resolves the services plugins declared in configure(): fills every ServiceRef, finds the
// required services no loaded plugin provides, and orders the start by the manifest
// dependencies plus provider-before-requirer.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "docs/registry.hpp"

namespace docs::core {

// One registry.require() or registry.use() call.
struct DeclaredNeed {
  std::string plugin;
  std::string serviceId;
  ServiceNeed need = ServiceNeed::Required;
  ServiceSlot* slot = nullptr;
};

// A loaded plugin and the plugins its manifest depends on.
struct PluginNode {
  std::string name;
  std::vector<std::string> dependencies;
};

struct ProvidedServices {
  std::map<std::string, void*, std::less<>> services;      // id -> the object
  std::map<std::string, std::string, std::less<>> owners;  // id -> the plugin that provides it
};

// Why no loaded plugin provides a service: "projects: disabled by plugins.enabled", or ""
// when no plugin is known to provide it.
using WhyServiceAbsent = std::function<std::string(std::string_view serviceId)>;

struct ServiceResolution {
  std::vector<std::string> order;     // the start order; stop is the reverse
  std::vector<std::string> problems;  // empty when every required service is there and no cycle
};

// Fills every slot (null for a missing service), then orders the plugins with Kahn's
// algorithm over the manifest dependencies plus provider -> requirer for Required needs,
// taking ready plugins in name order. Optional needs add no edge. On a cycle the plugins
// left are appended in name order and the cycle is a problem, listed plugin by plugin.
ServiceResolution resolveServices(const std::vector<PluginNode>& plugins, const std::vector<DeclaredNeed>& needs,
                                  const ProvidedServices& provided, const WhyServiceAbsent& whyAbsent);

// What `docsd plugins` prints for one plugin: "provides a; requires b; uses c", "" for none.
std::string describeServices(std::string_view plugin, const std::vector<DeclaredNeed>& needs,
                             const ProvidedServices& provided);

}  // namespace docs::core
