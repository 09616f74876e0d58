#pragma once
// Method + path-template routing. Literal segments beat {params}; a path that matches
// with another method is a 405 with Allow, no match at all a 404.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "docs/http.hpp"
#include "docs/route_doc.hpp"

namespace docs::core {

struct Route {
  Method method;
  std::string pathTemplate;
  Handler handler;
  RouteOptions options;
  std::string owner;                         // plugin name, for logs and `docsd plugins`
  std::vector<std::string> segments;         // "{id}" marks a parameter
  std::shared_ptr<const RouteDoc> doc = {};  // null: listed bare in GET /api/openapi.json
};

struct RouteMatch {
  enum class Kind { Found, NotFound, MethodNotAllowed, BadPath } kind = Kind::NotFound;
  const Route* route = nullptr;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<Method> allowed;  // for MethodNotAllowed
};

class Router {
 public:
  // Throws std::invalid_argument for a malformed template or a duplicate route.
  void add(Route route);
  // path is the raw (still percent-encoded) path without the query.
  RouteMatch match(Method method, std::string_view rawPath) const;
  const std::vector<std::unique_ptr<Route>>& routes() const { return routes_; }

 private:
  std::vector<std::unique_ptr<Route>> routes_;
};

// Splits "/a/b%2Fc/" into decoded segments {"a", "b/c"}; nullopt for a malformed escape
// or a NUL byte.
std::optional<std::vector<std::string>> splitPath(std::string_view rawPath);

}  // namespace docs::core
