// The OpenAPI document built from routes and their RouteDocs (http/openapi.cpp).
#include <gtest/gtest.h>

#include "http/openapi.hpp"

using docs::AnswerDoc;
using docs::Json;
using docs::Method;
using docs::ParamDoc;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::core::Route;
using docs::core::Router;

namespace {

Route route(Method method, std::string path, std::string owner, std::shared_ptr<const RouteDoc> doc = nullptr) {
  return Route{method, std::move(path), [](docs::Request&, docs::Response& r) { r.text("x"); }, {}, std::move(owner),
               {},     std::move(doc)};
}

RouteDoc noteDoc() {
  RouteDoc doc;
  doc.summary = "A note";
  doc.access = RouteAccess::SignedIn;
  doc.params = {ParamDoc{"id", ParamIn::Path, "the note's id", true, Json{{"type", "integer"}}},
                ParamDoc{"fields", ParamIn::Query, "", false, Json{{"type", "string"}}}};
  doc.answers = {docs::jsonAnswer(200, "the note", docs::schemaRef("Note")), docs::errorAnswer(404, "no such note")};
  doc.schemas = {
      {"Note", Json{{"type", "object"}, {"required", {"id"}}, {"properties", {{"id", {{"type", "integer"}}}}}}}};
  return doc;
}

}  // namespace

TEST(OpenApi, ABareRouteIsListedWithItsPathParametersAndPlugin) {
  Router router;
  router.add(route(Method::Delete, "/api/thing/{id}/part/{name}", "things"));
  Json doc = docs::core::buildOpenApiDocument(router, {}, {});
  EXPECT_EQ(doc["openapi"], "3.1.0");
  const Json& op = doc["paths"]["/api/thing/{id}/part/{name}"]["delete"];
  ASSERT_TRUE(op.is_object()) << doc.dump(2);
  EXPECT_EQ(op["x-docsd-described"], false);
  EXPECT_EQ(op["x-docsd-plugin"], "things");
  EXPECT_EQ(op["tags"], Json::array({"things"}));
  EXPECT_EQ(op["operationId"], "delete_api_thing_id_part_name");
  ASSERT_EQ(op["parameters"].size(), 2u);
  EXPECT_EQ(op["parameters"][0]["name"], "id");
  EXPECT_EQ(op["parameters"][0]["in"], "path");
  EXPECT_EQ(op["parameters"][0]["required"], true);
  EXPECT_EQ(op["parameters"][1]["name"], "name");
  EXPECT_FALSE(op.contains("security"));
  EXPECT_FALSE(op["responses"]["default"].contains("content"));
  EXPECT_TRUE(doc["components"]["schemas"].contains("Error"));
}

TEST(OpenApi, ADescribedRouteCarriesParametersAnswersSecurityAndSchemas) {
  Router router;
  RouteDoc described = noteDoc();
  std::map<std::string, Json> schemas;
  docs::core::mergeSchemas(schemas, described, "test");
  router.add(route(Method::Get, "/api/note/{id}", "notes", std::make_shared<const RouteDoc>(described)));
  RouteDoc create;
  create.access = RouteAccess::Session;
  create.body = docs::BodyDoc{"application/json", Json{{"type", "object"}}, "the note", true};
  create.answers = {docs::jsonAnswer(201, "created", docs::schemaRef("Note")), AnswerDoc{204, "nothing", "", nullptr}};
  router.add(route(Method::Post, "/api/note", "notes", std::make_shared<const RouteDoc>(create)));

  docs::core::OpenApiInfo info;
  info.version = "9.9.9";
  info.serverUrl = "https://docs.example.com";
  info.plugins = {{"notes", "1.2.3"}};
  Json doc = docs::core::buildOpenApiDocument(router, schemas, info);
  EXPECT_EQ(doc["info"]["version"], "9.9.9");
  EXPECT_EQ(doc["servers"][0]["url"], "https://docs.example.com");
  EXPECT_EQ(doc["x-docsd-plugins"][0]["version"], "1.2.3");

  const Json& get = doc["paths"]["/api/note/{id}"]["get"];
  EXPECT_EQ(get["x-docsd-described"], true);
  EXPECT_EQ(get["summary"], "A note");
  ASSERT_EQ(get["parameters"].size(), 2u);  // the declared {id} is not listed twice
  EXPECT_EQ(get["parameters"][0]["schema"]["type"], "integer");
  EXPECT_FALSE(get["parameters"][1].contains("required"));
  EXPECT_EQ(get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Note");
  EXPECT_EQ(get["responses"]["404"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
  EXPECT_EQ(get["responses"]["default"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
  EXPECT_EQ(get["security"], Json::parse(R"([{"bearer": []}, {"cookie": []}])"));
  EXPECT_EQ(doc["components"]["schemas"]["Note"]["required"], Json::array({"id"}));

  const Json& post = doc["paths"]["/api/note"]["post"];
  EXPECT_EQ(post["requestBody"]["required"], true);
  EXPECT_TRUE(post["requestBody"]["content"].contains("application/json"));
  EXPECT_FALSE(post["responses"]["204"].contains("content"));
  EXPECT_EQ(post["x-docsd-access"], "session");
  EXPECT_NE(post["description"].get<std::string>().find("token_not_allowed"), std::string::npos);
}

TEST(OpenApi, AnonymousAndOptionalCallersAreSaidSo) {
  Router router;
  RouteDoc anyone;
  anyone.access = RouteAccess::Anyone;
  RouteDoc optional;
  optional.access = RouteAccess::Optional;
  router.add(route(Method::Get, "/a", "p", std::make_shared<const RouteDoc>(anyone)));
  router.add(route(Method::Get, "/b", "p", std::make_shared<const RouteDoc>(optional)));
  Json doc = docs::core::buildOpenApiDocument(router, {}, {});
  EXPECT_EQ(doc["paths"]["/a"]["get"]["security"], Json::array());
  EXPECT_EQ(doc["paths"]["/b"]["get"]["security"], Json::parse(R"([{}, {"bearer": []}, {"cookie": []}])"));
}

TEST(OpenApi, AMistakenDescriptionIsRefused) {
  RouteDoc unknownParam;
  unknownParam.params = {ParamDoc{"nope", ParamIn::Path}};
  EXPECT_THROW(docs::core::checkRouteDoc("GET", "/api/x/{id}", unknownParam), std::invalid_argument);
  RouteDoc twice;
  twice.answers = {docs::jsonAnswer(200, "a", nullptr), docs::jsonAnswer(200, "b", nullptr)};
  EXPECT_THROW(docs::core::checkRouteDoc("GET", "/api/x", twice), std::invalid_argument);
  RouteDoc badStatus;
  badStatus.answers = {docs::jsonAnswer(99, "a", nullptr)};
  EXPECT_THROW(docs::core::checkRouteDoc("GET", "/api/x", badStatus), std::invalid_argument);
  RouteDoc paramTwice;
  paramTwice.params = {ParamDoc{"q"}, ParamDoc{"q"}};
  EXPECT_THROW(docs::core::checkRouteDoc("GET", "/api/x", paramTwice), std::invalid_argument);
  RouteDoc fine = noteDoc();
  EXPECT_NO_THROW(docs::core::checkRouteDoc("GET", "/api/note/{id}", fine));
}

TEST(OpenApi, OneNameIsOneSchema) {
  std::map<std::string, Json> schemas;
  RouteDoc a = noteDoc();
  docs::core::mergeSchemas(schemas, a, "a");
  EXPECT_NO_THROW(docs::core::mergeSchemas(schemas, a, "again"));
  RouteDoc other;
  other.schemas = {{"Note", Json{{"type", "string"}}}};
  EXPECT_THROW(docs::core::mergeSchemas(schemas, other, "b"), std::invalid_argument);
  RouteDoc error;
  error.schemas = {{"Error", Json{{"type", "string"}}}};
  EXPECT_THROW(docs::core::mergeSchemas(schemas, error, "c"), std::invalid_argument);
}

TEST(OpenApi, TheRouteServesADocumentThatListsItself) {
  Router router;
  router.add(route(Method::Get, "/api/x", "p"));
  docs::core::addOpenApiRoute(router, {}, {});
  auto match = router.match(Method::Get, "/api/openapi.json");
  ASSERT_EQ(match.kind, docs::core::RouteMatch::Kind::Found);
  docs::Request request(docs::Request::Init{});
  docs::Response response;
  match.route->handler(request, response);
  EXPECT_EQ(response.status(), 200);
  Json doc = Json::parse(response.body());
  EXPECT_TRUE(doc["paths"]["/api/x"].contains("get"));
  EXPECT_EQ(doc["paths"]["/api/openapi.json"]["get"]["x-docsd-plugin"], "core");
  EXPECT_TRUE(doc["paths"].contains("/healthz"));
}
