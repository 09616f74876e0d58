#include "app/service_graph.hpp"

#include <algorithm>
#include <set>

namespace docs::core {

namespace {

// Edges from a plugin to the plugins that must start before it, each with the reason
// a cycle report shows.
using Prerequisites = std::map<std::string, std::map<std::string, std::string>>;

std::string missingService(const DeclaredNeed& need, const WhyServiceAbsent& whyAbsent) {
  std::string why = whyAbsent ? whyAbsent(need.serviceId) : "";
  return "plugin " + need.plugin + " requires " + need.serviceId + ", which no loaded plugin provides (" +
         (why.empty() ? "no other plugin provides it" : why) + ")";
}

// A cycle among the plugins Kahn could not order: from the first by name, follow the first
// remaining prerequisite until a plugin repeats.
std::string describeCycle(const std::set<std::string>& left, const Prerequisites& before) {
  std::vector<std::string> path;
  std::string at = *left.begin();
  while (std::find(path.begin(), path.end(), at) == path.end()) {
    path.push_back(at);
    for (const auto& [prerequisite, reason] : before.at(at))
      if (left.count(prerequisite)) {
        at = prerequisite;
        break;
      }
  }
  std::string text;
  auto from = std::find(path.begin(), path.end(), at);
  for (auto it = from; it != path.end(); ++it) {
    auto next = std::next(it) == path.end() ? *from : *std::next(it);
    text += (text.empty() ? "" : " -> ") + before.at(*it).at(next);
  }
  return "plugins depend on each other in a cycle: " + text;
}

}  // namespace

ServiceResolution resolveServices(const std::vector<PluginNode>& plugins, const std::vector<DeclaredNeed>& needs,
                                  const ProvidedServices& provided, const WhyServiceAbsent& whyAbsent) {
  ServiceResolution resolution;
  Prerequisites before;
  for (const auto& plugin : plugins) before[plugin.name];
  for (const auto& plugin : plugins)
    for (const auto& dependency : plugin.dependencies)
      if (before.count(dependency))
        before[plugin.name].emplace(dependency, plugin.name + " needs plugin " + dependency);

  for (const auto& need : needs) {
    if (!before.count(need.plugin)) continue;  // a plugin that did not load
    auto owner = provided.owners.find(need.serviceId);
    bool present = owner != provided.owners.end() && before.count(owner->second);
    need.slot->service = present ? provided.services.find(need.serviceId)->second : nullptr;
    need.slot->resolved = true;
    if (!present) {
      if (need.need == ServiceNeed::Required) resolution.problems.push_back(missingService(need, whyAbsent));
      continue;
    }
    if (need.need == ServiceNeed::Required && owner->second != need.plugin)
      before[need.plugin].emplace(owner->second,
                                  need.plugin + " requires " + need.serviceId + " (" + owner->second + ")");
  }

  // Kahn's algorithm, taking the first ready plugin by name so the order is stable.
  std::set<std::string> left;
  for (const auto& [name, prerequisites] : before) left.insert(name);
  while (!left.empty()) {
    auto ready = std::find_if(left.begin(), left.end(), [&](const std::string& name) {
      return std::none_of(before[name].begin(), before[name].end(),
                          [&](const auto& edge) { return left.count(edge.first) > 0; });
    });
    if (ready == left.end()) {
      resolution.problems.push_back(describeCycle(left, before));
      resolution.order.insert(resolution.order.end(), left.begin(), left.end());
      break;
    }
    resolution.order.push_back(*ready);
    left.erase(ready);
  }
  return resolution;
}

std::string describeServices(std::string_view plugin, const std::vector<DeclaredNeed>& needs,
                             const ProvidedServices& provided) {
  std::map<std::string, std::vector<std::string>> lists;
  for (const auto& [id, owner] : provided.owners)
    if (owner == plugin) lists["provides"].push_back(id);
  for (const auto& need : needs) {
    if (need.plugin != plugin) continue;
    auto& list = lists[need.need == ServiceNeed::Required ? "requires" : "uses"];
    // A plugin may declare one need twice (two objects holding a ref each): listed once.
    if (std::find(list.begin(), list.end(), need.serviceId) == list.end()) list.push_back(need.serviceId);
  }
  std::string text;
  for (const char* kind : {"provides", "requires", "uses"}) {
    auto it = lists.find(kind);
    if (it == lists.end()) continue;
    text += std::string(text.empty() ? "" : "; ") + kind;
    for (std::size_t i = 0; i < it->second.size(); ++i) text += (i ? ", " : " ") + it->second[i];
  }
  return text;
}

}  // namespace docs::core
