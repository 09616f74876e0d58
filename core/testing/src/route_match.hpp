#pragma once
// Picks the route docsd's router would pick for a method and a decoded path.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <docs/testing/fake_registry.hpp>

namespace docs::testing {

struct RouteChoice {
  const RecordedRoute* route = nullptr;  // null: none for this method
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<Method> allowed;  // methods of the routes whose template matches the path
};

// "/a//b/" -> {"a", "b"}: empty segments are dropped, as docsd drops them.
std::vector<std::string> pathSegments(std::string_view path);
bool isParamSegment(std::string_view segment);
RouteChoice chooseRoute(const std::vector<RecordedRoute>& routes, Method method, std::string_view path);

}  // namespace docs::testing
