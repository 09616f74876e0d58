#include <gtest/gtest.h>

#include "http/router.hpp"

using docs::Method;
using docs::core::Route;
using docs::core::RouteMatch;
using docs::core::Router;

namespace {

Route route(Method method, const std::string& path, const std::string& owner = "test") {
  return Route{method, path, [owner](docs::Request&, docs::Response& r) { r.text(owner); }, {}, owner, {}};
}

}  // namespace

TEST(Router, LiteralSegmentBeatsParameter) {
  Router router;
  router.add(route(Method::Post, "/api/project/{id}", "param"));
  router.add(route(Method::Post, "/api/project/github", "literal"));
  auto match = router.match(Method::Post, "/api/project/github");
  ASSERT_EQ(match.kind, RouteMatch::Kind::Found);
  EXPECT_EQ(match.route->owner, "literal");
  auto other = router.match(Method::Post, "/api/project/42");
  ASSERT_EQ(other.kind, RouteMatch::Kind::Found);
  EXPECT_EQ(other.route->owner, "param");
  ASSERT_EQ(other.params.size(), 1u);
  EXPECT_EQ(other.params[0].first, "id");
  EXPECT_EQ(other.params[0].second, "42");
}

TEST(Router, EarlierLiteralWinsOverLaterLiteral) {
  Router router;
  router.add(route(Method::Get, "/{a}/x", "late"));
  router.add(route(Method::Get, "/y/{b}", "early"));
  EXPECT_EQ(router.match(Method::Get, "/y/x").route->owner, "early");
}

TEST(Router, ParametersAreDecodedPerSegment) {
  Router router;
  router.add(route(Method::Get, "/api/github/{owner}/{repo}"));
  auto match = router.match(Method::Get, "/api/github/some%20one/a%2Fb");
  ASSERT_EQ(match.kind, RouteMatch::Kind::Found);
  EXPECT_EQ(match.params[0].second, "some one");
  EXPECT_EQ(match.params[1].second, "a/b");  // an encoded slash stays inside its segment
}

TEST(Router, WrongMethodIs405WithAllowedMethods) {
  Router router;
  router.add(route(Method::Get, "/api/page/{id}"));
  router.add(route(Method::Patch, "/api/page/{id}"));
  auto match = router.match(Method::Put, "/api/page/3");
  EXPECT_EQ(match.kind, RouteMatch::Kind::MethodNotAllowed);
  EXPECT_EQ(match.allowed.size(), 2u);
}

TEST(Router, UnknownPathIs404) {
  Router router;
  router.add(route(Method::Get, "/api/page/{id}"));
  EXPECT_EQ(router.match(Method::Get, "/api/page").kind, RouteMatch::Kind::NotFound);
  EXPECT_EQ(router.match(Method::Get, "/api/page/3/extra").kind, RouteMatch::Kind::NotFound);
  EXPECT_EQ(router.match(Method::Get, "/nothing").kind, RouteMatch::Kind::NotFound);
}

TEST(Router, HeadFallsBackToGet) {
  Router router;
  router.add(route(Method::Get, "/api/projects"));
  EXPECT_EQ(router.match(Method::Head, "/api/projects").kind, RouteMatch::Kind::Found);
}

TEST(Router, TrailingAndRepeatedSlashesAreIgnored) {
  Router router;
  router.add(route(Method::Get, "/api/projects"));
  EXPECT_EQ(router.match(Method::Get, "/api/projects/").kind, RouteMatch::Kind::Found);
  EXPECT_EQ(router.match(Method::Get, "//api//projects").kind, RouteMatch::Kind::Found);
}

TEST(Router, MalformedEscapesAndNulBytesAreBadPaths) {
  Router router;
  router.add(route(Method::Get, "/api/page/{id}"));
  EXPECT_EQ(router.match(Method::Get, "/api/page/%zz").kind, RouteMatch::Kind::BadPath);
  EXPECT_EQ(router.match(Method::Get, "/api/page/%").kind, RouteMatch::Kind::BadPath);
  EXPECT_EQ(router.match(Method::Get, "/api/page/a%00b").kind, RouteMatch::Kind::BadPath);
}

TEST(Router, DuplicateRouteIsRefusedNamingBothOwners) {
  Router router;
  router.add(route(Method::Get, "/api/page/{id}", "pages"));
  try {
    router.add(route(Method::Get, "/api/page/{pageId}", "other"));
    FAIL() << "expected a clash";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("pages"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("other"), std::string::npos);
  }
  EXPECT_NO_THROW(router.add(route(Method::Post, "/api/page/{id}", "other")));
}

TEST(Router, MalformedTemplatesAreRefused) {
  Router router;
  EXPECT_THROW(router.add(route(Method::Get, "api/no-slash")), std::invalid_argument);
  EXPECT_THROW(router.add(route(Method::Get, "/api/{unclosed")), std::invalid_argument);
  EXPECT_THROW(router.add(route(Method::Get, "/api/{}")), std::invalid_argument);
}
