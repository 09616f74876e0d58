#include "import_communities.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace docs::generation {
namespace {

std::string stemOf(const std::string& path) {
  std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  auto dot = name.find('.', 1);  // "a.test.ts" -> "a"
  return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

std::vector<std::vector<std::string>> importCommunities(const Analysis& analysis, const std::vector<std::string>& files) {
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
  // Label propagation, in path order so the result is the same every run: each file
  // takes the label most of its neighbours have (its own on a tie, else the smallest).
  std::vector<std::size_t> label(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) label[i] = i;
  for (int round = 0; round < 50; ++round) {
    bool changed = false;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (neighbours[i].empty()) continue;
      std::map<std::size_t, std::size_t> votes;
      for (auto n : neighbours[i]) ++votes[label[n]];
      std::size_t best = label[i], bestVotes = votes.count(label[i]) ? votes[label[i]] : 0;
      for (const auto& [candidate, count] : votes)
        if (count > bestVotes) {
          best = candidate;
          bestVotes = count;
        }
      if (best != label[i]) {
        label[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
  }
  std::map<std::size_t, std::vector<std::string>> groups;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!neighbours[i].empty()) groups[label[i]].push_back(nodes[i]);
  std::vector<std::vector<std::string>> result;
  for (auto& [_, group] : groups)
    if (group.size() >= 2) result.push_back(std::move(group));
  std::stable_sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
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

}  // namespace docs::generation
