#include "http/router.hpp"

#include <algorithm>
#include <stdexcept>

#include <docs/codec/codec.hpp>

namespace docs::core {

namespace {

bool isParam(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

std::vector<std::string> splitTemplate(const std::string& pathTemplate) {
  if (pathTemplate.empty() || pathTemplate.front() != '/')
    throw std::invalid_argument("route template must start with '/': " + pathTemplate);
  std::vector<std::string> segments;
  std::size_t start = 1;
  while (start <= pathTemplate.size()) {
    auto slash = pathTemplate.find('/', start);
    std::string segment = pathTemplate.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!segment.empty()) {
      if ((segment.front() == '{') != (segment.back() == '}') || segment == "{}")
        throw std::invalid_argument("malformed parameter in route template: " + pathTemplate);
      segments.push_back(std::move(segment));
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return segments;
}

// Lower is more specific: a literal at an earlier position beats a parameter there.
std::vector<int> specificity(const Route& route) {
  std::vector<int> score;
  for (const auto& segment : route.segments) score.push_back(isParam(segment) ? 1 : 0);
  return score;
}

bool sameShape(const Route& a, const Route& b) {
  if (a.segments.size() != b.segments.size()) return false;
  for (std::size_t i = 0; i < a.segments.size(); ++i) {
    bool pa = isParam(a.segments[i]), pb = isParam(b.segments[i]);
    if (pa != pb) return false;
    if (!pa && a.segments[i] != b.segments[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<std::vector<std::string>> splitPath(std::string_view rawPath) {
  std::vector<std::string> segments;
  std::size_t start = rawPath.empty() || rawPath.front() != '/' ? 0 : 1;
  while (start <= rawPath.size()) {
    auto slash = rawPath.find('/', start);
    auto piece = rawPath.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!piece.empty()) {
      auto decoded = codec::percentDecode(piece);
      if (!decoded || decoded->find('\0') != std::string::npos) return std::nullopt;
      segments.push_back(std::move(*decoded));
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return segments;
}

void Router::add(Route route) {
  route.segments = splitTemplate(route.pathTemplate);
  for (const auto& existing : routes_)
    if (existing->method == route.method && sameShape(*existing, route))
      throw std::invalid_argument("route " + std::string(methodName(route.method)) + " " + route.pathTemplate + " (" +
                                  route.owner + ") clashes with " + existing->pathTemplate + " (" + existing->owner +
                                  ")");
  routes_.push_back(std::make_unique<Route>(std::move(route)));
}

RouteMatch Router::match(Method method, std::string_view rawPath) const {
  RouteMatch result;
  auto segments = splitPath(rawPath);
  if (!segments) {
    result.kind = RouteMatch::Kind::BadPath;
    return result;
  }
  const Route* best = nullptr;
  std::vector<int> bestScore;
  const Route* bestGet = nullptr;  // HEAD falls back to GET
  std::vector<int> bestGetScore;
  for (const auto& route : routes_) {
    if (route->segments.size() != segments->size()) continue;
    bool matches = true;
    for (std::size_t i = 0; i < segments->size() && matches; ++i)
      matches = isParam(route->segments[i]) || route->segments[i] == (*segments)[i];
    if (!matches) continue;
    auto score = specificity(*route);
    if (route->method == method) {
      if (!best || score < bestScore) best = route.get(), bestScore = score;
    } else if (method == Method::Head && route->method == Method::Get) {
      if (!bestGet || score < bestGetScore) bestGet = route.get(), bestGetScore = score;
    }
    if (std::find(result.allowed.begin(), result.allowed.end(), route->method) == result.allowed.end())
      result.allowed.push_back(route->method);
  }
  if (!best) best = bestGet;
  if (!best) {
    result.kind = result.allowed.empty() ? RouteMatch::Kind::NotFound : RouteMatch::Kind::MethodNotAllowed;
    return result;
  }
  result.kind = RouteMatch::Kind::Found;
  result.route = best;
  for (std::size_t i = 0; i < segments->size(); ++i)
    if (isParam(best->segments[i]))
      result.params.emplace_back(best->segments[i].substr(1, best->segments[i].size() - 2), (*segments)[i]);
  return result;
}

}  // namespace docs::core
