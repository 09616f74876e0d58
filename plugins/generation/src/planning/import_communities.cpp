#include "planning/import_communities.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace docs_generation {
namespace {

std::string stemOf(const std::string& path) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  auto dot = name.find('.', 1);  // "a.test.ts" -> "a"
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// One pass of Louvain's local moving over a weighted graph (both directions stored; a
// self loop holds twice the weight inside a merged node). Each node's community,
// numbered from 0 in node order; nullopt when no node moved.
std::optional<std::vector<std::size_t>> localMoving(const std::vector<std::map<std::size_t, double>>& graph) {
  const std::size_t n = graph.size();
  std::vector<double> degree(n, 0), total(n, 0);
  double twice = 0;  // twice the weight of all edges
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& [j, weight] : graph[i]) degree[i] += weight;
    total[i] = degree[i];
    twice += degree[i];
  }
  if (twice <= 0) return std::nullopt;
  std::vector<std::size_t> community(n);
  for (std::size_t i = 0; i < n; ++i) community[i] = i;
  bool movedAny = false;
  for (int round = 0; round < 100; ++round) {
    bool moved = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (degree[i] <= 0) continue;
      std::map<std::size_t, double> links;  // weight from i to each neighbouring community
      for (const auto& [j, weight] : graph[i])
        if (j != i) links[community[j]] += weight;
      std::size_t own = community[i];
      total[own] -= degree[i];
      auto gain = [&](std::size_t c) {
        auto found = links.find(c);
        return (found == links.end() ? 0.0 : found->second) - total[c] * degree[i] / twice;
      };
      std::size_t best = own;
      double bestGain = gain(own);
      for (const auto& [c, weight] : links)
        if (double g = gain(c); g > bestGain + 1e-9) {
          best = c;
          bestGain = g;
        }
      total[best] += degree[i];
      if (best != own) {
        community[i] = best;
        moved = movedAny = true;
      }
    }
    if (!moved) break;
  }
  if (!movedAny) return std::nullopt;
  std::map<std::size_t, std::size_t> renumbered;
  for (auto& c : community) c = renumbered.emplace(c, renumbered.size()).first->second;
  return community;
}

}  // namespace

std::vector<std::vector<std::string>> importCommunities(const Analysis& analysis,
                                                        const std::vector<std::string>& files) {
  std::vector<std::string> nodes(files.begin(), files.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  // Undirected: an import either way links two files.
  std::vector<std::set<std::size_t>> neighbours(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto* file = analysis.find(nodes[i]);
    if (!file) continue;
    for (const auto* list : {&file->dependsOn, &file->usedBy})
      for (const auto& other : *list)
        if (auto found = index.find(other); found != index.end() && found->second != i) {
          neighbours[i].insert(found->second);
          neighbours[found->second].insert(i);
        }
  }
  // Hubs (a package's __init__, its errors module) link everything with everything and
  // would make one group of the folder: the busiest are taken out, one at a time.
  const std::size_t hubDegree = std::max<std::size_t>(4, nodes.size() / 3);
  for (;;) {
    std::size_t hub = nodes.size(), degree = hubDegree;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (neighbours[i].size() > degree) {
        hub = i;
        degree = neighbours[i].size();
      }
    if (hub == nodes.size()) break;
    for (auto n : neighbours[hub]) neighbours[n].erase(hub);
    neighbours[hub].clear();
  }
  // Louvain: files move to the neighbouring group that raises modularity most, then the
  // groups are merged as nodes of a smaller graph, until nothing moves.
  std::vector<std::map<std::size_t, double>> graph(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (auto n : neighbours[i]) graph[i][n] = 1;
  std::vector<std::size_t> member(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) member[i] = i;
  for (int level = 0; level < 20; ++level) {
    auto community = localMoving(graph);
    if (!community) break;
    for (auto& m : member) m = (*community)[m];
    std::size_t count = *std::max_element(community->begin(), community->end()) + 1;
    std::vector<std::map<std::size_t, double>> merged(count);
    for (std::size_t i = 0; i < graph.size(); ++i)
      for (const auto& [j, weight] : graph[i]) merged[(*community)[i]][(*community)[j]] += weight;
    graph = std::move(merged);
  }
  // Without clear community structure (modularity under 0.3, the usual bar) the folder
  // is one tangle: no groups.
  double edges = 0;
  std::map<std::size_t, double> inside, degrees;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (auto n : neighbours[i]) {
      edges += 0.5;
      degrees[member[i]] += 1;
      if (member[n] == member[i]) inside[member[i]] += 0.5;
    }
  double modularity = 0;
  for (const auto& [c, degree] : degrees)
    modularity += inside[c] / edges - (degree / (2 * edges)) * (degree / (2 * edges));
  if (edges == 0 || modularity < 0.3) return {};
  std::map<std::size_t, std::vector<std::string>> groups;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!neighbours[i].empty()) groups[member[i]].push_back(nodes[i]);
  std::vector<std::vector<std::string>> result;
  for (auto& [_, group] : groups)
    if (group.size() >= 2) result.push_back(std::move(group));
  // Largest first, then by their first path (groups hold paths in order).
  std::sort(result.begin(), result.end(),
            [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
  return result;
}

std::string communityName(const Analysis& analysis, const std::vector<std::string>& files) {
  if (files.empty()) return "";
  std::string prefix = stemOf(files.front());
  for (const auto& path : files) {
    std::string stem = stemOf(path);
    std::size_t n = 0;
    while (n < prefix.size() && n < stem.size() && prefix[n] == stem[n]) ++n;
    prefix.resize(n);
  }
  while (!prefix.empty() && (prefix.back() == '_' || prefix.back() == '-' || prefix.back() == '.')) prefix.pop_back();
  if (prefix.size() >= 3) return prefix;
  // The most imported file within the group, then overall, then the first by path.
  std::set<std::string> members(files.begin(), files.end());
  const std::string* best = &files.front();
  std::pair<std::size_t, std::size_t> bestScore{0, 0};
  for (const auto& path : files) {
    const auto* file = analysis.find(path);
    if (!file) continue;
    std::size_t inside = 0;
    for (const auto& user : file->usedBy) inside += members.count(user);
    std::pair<std::size_t, std::size_t> score{inside, file->usedBy.size()};
    if (score > bestScore) {
      bestScore = score;
      best = &path;
    }
  }
  return stemOf(*best);
}

}  // namespace docs_generation
