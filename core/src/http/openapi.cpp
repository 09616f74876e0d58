#include "http/openapi.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <stdexcept>

#ifndef DOCS_API_VERSION
#define DOCS_API_VERSION "0"
#endif

namespace docs::core {
namespace {

const char* kErrorSchema = "Error";

Json errorSchema() {
  return {{"type", "object"},
          {"required", {"error"}},
          {"properties",
           {{"error",
             {{"type", "object"},
              {"required", {"code", "message", "request_id"}},
              {"properties",
               {{"code", {{"type", "string"}}},
                {"message", {{"type", "string"}}},
                {"request_id", {{"type", "string"}}}}}}}}}};
}

std::string routeName(const std::string& method, const std::string& pathTemplate) {
  return method + " " + pathTemplate;
}

std::vector<std::string> templateParams(const std::string& pathTemplate) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while ((start = pathTemplate.find('{', start)) != std::string::npos) {
    auto end = pathTemplate.find('}', start);
    if (end == std::string::npos) break;
    names.push_back(pathTemplate.substr(start + 1, end - start - 1));
    start = end + 1;
  }
  return names;
}

const char* inName(ParamIn in) {
  switch (in) {
    case ParamIn::Path: return "path";
    case ParamIn::Query: return "query";
    case ParamIn::Header: return "header";
  }
  return "query";
}

const char* accessName(RouteAccess access) {
  switch (access) {
    case RouteAccess::Unspecified: return "unspecified";
    case RouteAccess::Anyone: return "anyone";
    case RouteAccess::Optional: return "optional";
    case RouteAccess::SignedIn: return "signed_in";
    case RouteAccess::Session: return "session";
  }
  return "unspecified";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "get /api/page/{id}/content" -> "get_api_page_id_content"
std::string operationId(const Route& route) {
  std::string id = lower(methodName(route.method));
  for (char c : route.pathTemplate) {
    if (std::isalnum(static_cast<unsigned char>(c))) id += c;
    else if (c == '/' || c == '-' || c == '.' || c == '_') {
      if (id.back() != '_') id += '_';
    }
  }
  while (!id.empty() && id.back() == '_') id.pop_back();
  return id;
}

Json content(const std::string& contentType, const Json& schema) {
  Json media = Json::object();
  if (!schema.is_null()) media["schema"] = schema;
  return {{contentType, media}};
}

Json security(RouteAccess access) {
  Json signedIn = Json::array({Json{{"bearer", Json::array()}}, Json{{"cookie", Json::array()}}});
  switch (access) {
    case RouteAccess::Unspecified: return nullptr;
    case RouteAccess::Anyone: return Json::array();
    case RouteAccess::Optional: {
      Json anyone = Json::array({Json::object()});
      for (auto& requirement : signedIn) anyone.push_back(requirement);
      return anyone;
    }
    case RouteAccess::SignedIn:
    case RouteAccess::Session: return signedIn;
  }
  return nullptr;
}

Json operation(const Route& route, const std::string& id) {
  const RouteDoc* doc = route.doc.get();
  Json op = {{"operationId", id}, {"x-docsd-plugin", route.owner}, {"x-docsd-described", doc != nullptr}};
  Json tags = Json::array();
  if (doc)
    for (const auto& tag : doc->tags) tags.push_back(tag);
  if (tags.empty()) tags.push_back(route.owner);
  op["tags"] = tags;
  if (doc && !doc->summary.empty()) op["summary"] = doc->summary;
  std::string description = doc ? doc->description : "";
  if (doc && doc->access == RouteAccess::Session)
    description += std::string(description.empty() ? "" : "\n\n") +
                   "Needs a session (cookie or JWT): a personal access token is refused (403 `token_not_allowed`).";
  if (!description.empty()) op["description"] = description;

  Json parameters = Json::array();
  std::set<std::string> declaredPath;
  if (doc) {
    for (const auto& param : doc->params) {
      Json p = {{"name", param.name}, {"in", inName(param.in)}, {"schema", param.schema}};
      if (param.in == ParamIn::Path) declaredPath.insert(param.name);
      if (param.in == ParamIn::Path || param.required) p["required"] = true;
      if (!param.description.empty()) p["description"] = param.description;
      parameters.push_back(std::move(p));
    }
  }
  for (const auto& name : templateParams(route.pathTemplate))
    if (!declaredPath.count(name))
      parameters.push_back({{"name", name}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}});
  if (!parameters.empty()) op["parameters"] = parameters;

  if (doc && doc->body) {
    Json body = {{"required", doc->body->required}, {"content", content(doc->body->contentType, doc->body->schema)}};
    if (!doc->body->description.empty()) body["description"] = doc->body->description;
    op["requestBody"] = body;
  }

  Json responses = Json::object();
  if (doc) {
    for (const auto& answer : doc->answers) {
      Json r = {{"description", answer.description.empty() ? "Answer" : answer.description}};
      if (!answer.contentType.empty()) r["content"] = content(answer.contentType, answer.schema);
      responses[std::to_string(answer.status)] = r;
    }
  }
  if (doc) {
    responses["default"] = {{"description", "An error: {\"error\": {code, message, request_id}}"},
                            {"content", content("application/json", schemaRef(kErrorSchema))}};
  } else {
    responses["default"] = {{"description", "Not described by its plugin"}};
  }
  op["responses"] = responses;
  if (doc) {
    op["x-docsd-access"] = accessName(doc->access);
    Json sec = security(doc->access);
    if (!sec.is_null()) op["security"] = sec;
  }
  return op;
}

Json coreOperation(std::string id, std::string summary, Json responses) {
  return {{"operationId", std::move(id)},      {"tags", {"core"}},
          {"summary", std::move(summary)},     {"security", Json::array()},
          {"responses", std::move(responses)}, {"x-docsd-plugin", "core"},
          {"x-docsd-described", true}};
}

}  // namespace

void checkRouteDoc(const std::string& method, const std::string& pathTemplate, const RouteDoc& doc) {
  auto inTemplate = templateParams(pathTemplate);
  std::set<std::pair<int, std::string>> seen;
  for (const auto& param : doc.params) {
    if (param.name.empty())
      throw std::invalid_argument(routeName(method, pathTemplate) + ": a parameter without a name");
    if (!seen.insert({static_cast<int>(param.in), param.name}).second)
      throw std::invalid_argument(routeName(method, pathTemplate) + ": parameter " + param.name + " is listed twice");
    if (param.in == ParamIn::Path && std::find(inTemplate.begin(), inTemplate.end(), param.name) == inTemplate.end())
      throw std::invalid_argument(routeName(method, pathTemplate) + ": path parameter " + param.name +
                                  " is not in the template");
  }
  std::set<int> statuses;
  for (const auto& answer : doc.answers) {
    if (answer.status < 100 || answer.status > 599)
      throw std::invalid_argument(routeName(method, pathTemplate) + ": status " + std::to_string(answer.status) +
                                  " is not an HTTP status");
    if (!statuses.insert(answer.status).second)
      throw std::invalid_argument(routeName(method, pathTemplate) + ": status " + std::to_string(answer.status) +
                                  " is listed twice");
  }
  for (const auto& [name, schema] : doc.schemas)
    if (name.empty() || !schema.is_object())
      throw std::invalid_argument(routeName(method, pathTemplate) + ": schema '" + name +
                                  "' must be a named JSON object");
}

void mergeSchemas(std::map<std::string, Json>& into, const RouteDoc& doc, const std::string& where) {
  for (const auto& [name, schema] : doc.schemas) {
    if (name == kErrorSchema && schema != errorSchema())
      throw std::invalid_argument(where + ": the schema name Error is the core's");
    auto [it, added] = into.emplace(name, schema);
    if (!added && it->second != schema)
      throw std::invalid_argument(where + ": schema " + name + " differs from the one declared before under that name");
  }
}

Json buildOpenApiDocument(const Router& router, const std::map<std::string, Json>& schemas, const OpenApiInfo& info) {
  Json paths = Json::object();
  std::set<std::string> ids;
  for (const auto& route : router.routes()) {
    std::string id = operationId(*route);
    for (int n = 2; !ids.insert(id).second; ++n) id = operationId(*route) + "_" + std::to_string(n);
    paths[route->pathTemplate][lower(methodName(route->method))] = operation(*route, id);
  }
  Json healthy = {{"200", {{"description", "The process answers"}}}};
  Json ready = {{"200", {{"description", "Ready: the database answers and the plugins started"}}},
                {"503", {{"description", "Not ready yet, or no longer"}}}};
  paths["/healthz"]["get"] = coreOperation("get_healthz", "Liveness", healthy);
  paths["/readyz"]["get"] = coreOperation("get_readyz", "Readiness", ready);

  Json components = {{"schemas", Json::object()}};
  for (const auto& [name, schema] : schemas) components["schemas"][name] = schema;
  components["schemas"][kErrorSchema] = errorSchema();
  components["securitySchemes"] = {
      {"bearer",
       {{"type", "http"},
        {"scheme", "bearer"},
        {"description", "A JWT (GET /api/auth/token) or a personal access token (docs_pat_..., POST /api/tokens)"}}},
      {"cookie",
       {{"type", "apiKey"},
        {"in", "cookie"},
        {"name", "docs_session"},
        {"description", "The session cookie set by sign-in"}}}};

  Json plugins = Json::array();
  for (const auto& [name, version] : info.plugins) plugins.push_back({{"name", name}, {"version", version}});
  return {{"openapi", "3.1.0"},
          {"info",
           {{"title", info.title},
            {"version", info.version.empty() ? DOCS_API_VERSION : info.version},
            {"description", "The routes of this deployment: the plugins it loaded, as each declared them."}}},
          {"servers", {{{"url", info.serverUrl.empty() ? "/" : info.serverUrl}}}},
          {"paths", paths},
          {"components", components},
          {"x-docsd-plugins", plugins}};
}

void addOpenApiRoute(Router& router, const std::map<std::string, Json>& schemas, const OpenApiInfo& info) {
  RouteDoc doc;
  doc.summary = "This document";
  doc.description =
      "OpenAPI 3.1: every route the loaded plugins registered; `x-docsd-described` is false for a route "
      "its plugin did not describe (listed with its path parameters only).";
  doc.tags = {"core"};
  doc.access = RouteAccess::Anyone;
  doc.answers = {{200, "The OpenAPI document", "application/json",
                  Json{{"type", "object"},
                       {"required", {"openapi", "info", "paths"}},
                       {"properties",
                        {{"openapi", {{"type", "string"}, {"pattern", "^3\\.1\\."}}},
                         {"info", {{"type", "object"}}},
                         {"paths", {{"type", "object"}}}}}}}};
  // The document holds itself: built after the route is in the router, once (routes do
  // not change after the plugins configured).
  auto document = std::make_shared<Json>();
  router.add(Route{Method::Get,
                   "/api/openapi.json",
                   [document](Request&, Response& response) {
                     response.setHeader("Cache-Control", "no-cache");
                     response.json(*document);
                   },
                   RouteOptions{},
                   "core",
                   {},
                   std::make_shared<const RouteDoc>(std::move(doc))});
  *document = buildOpenApiDocument(router, schemas, info);
}

}  // namespace docs::core
