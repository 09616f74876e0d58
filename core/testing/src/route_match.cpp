#include "route_match.hpp"

#include <algorithm>

namespace docs::testing {

std::vector<std::string> pathSegments(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    auto piece = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!piece.empty()) segments.emplace_back(piece);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return segments;
}

bool isParamSegment(std::string_view segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

namespace {

// Lower is more specific: a literal at an earlier position beats a parameter there.
std::vector<int> specificity(const std::vector<std::string>& segments) {
  std::vector<int> score;
  score.reserve(segments.size());
  for (const auto& segment : segments) score.push_back(isParamSegment(segment) ? 1 : 0);
  return score;
}

bool matches(const std::vector<std::string>& pattern, const std::vector<std::string>& path) {
  if (pattern.size() != path.size()) return false;
  for (std::size_t i = 0; i < path.size(); ++i)
    if (!isParamSegment(pattern[i]) && pattern[i] != path[i]) return false;
  return true;
}

}  // namespace

RouteChoice chooseRoute(const std::vector<RecordedRoute>& routes, Method method, std::string_view path) {
  RouteChoice choice;
  const auto segments = pathSegments(path);
  const RecordedRoute* best = nullptr;
  const RecordedRoute* bestGet = nullptr;  // HEAD falls back to GET
  std::vector<int> bestScore, bestGetScore;
  std::vector<std::string> bestPattern, bestGetPattern;
  for (const auto& route : routes) {
    auto pattern = pathSegments(route.pathTemplate);
    if (!matches(pattern, segments)) continue;
    auto score = specificity(pattern);
    if (route.method == method) {
      if (!best || score < bestScore) best = &route, bestScore = score, bestPattern = pattern;
    } else if (method == Method::Head && route.method == Method::Get) {
      if (!bestGet || score < bestGetScore) bestGet = &route, bestGetScore = score, bestGetPattern = pattern;
    }
    if (std::find(choice.allowed.begin(), choice.allowed.end(), route.method) == choice.allowed.end())
      choice.allowed.push_back(route.method);
  }
  if (!best) best = bestGet, bestPattern = bestGetPattern;
  if (!best) return choice;
  choice.route = best;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (isParamSegment(bestPattern[i]))
      choice.params.emplace_back(bestPattern[i].substr(1, bestPattern[i].size() - 2), segments[i]);
  return choice;
}

}  // namespace docs::testing
