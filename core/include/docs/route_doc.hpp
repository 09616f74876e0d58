#pragma once
// What a route says about itself for GET /api/openapi.json: its parameters, body, answers
// and who may call it, declared next to the route (Registry::route's last argument). A
// route registered without one is still listed, with its method, path, path parameters
// and plugin only. Schemas are JSON Schema 2020-12 (what OpenAPI 3.1 uses), as JSON.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docs/http.hpp"

namespace docs {

enum class ParamIn { Path, Query, Header };

struct ParamDoc {
  std::string name{};
  ParamIn in = ParamIn::Query;
  std::string description{};
  bool required = false;  // a path parameter is always required
  Json schema = Json{{"type", "string"}};
};

struct BodyDoc {
  std::string contentType = "application/json";
  Json schema{};  // null: any content of that type
  std::string description{};
  bool required = true;
};

struct AnswerDoc {
  int status = 200;
  std::string description{};
  std::string contentType = "application/json";  // empty: no body (204, redirects)
  // The body's schema; checked against what the route answers in the integration tests.
  // null: the content is not described.
  Json schema{};
};

// Who may call, listed as the operation's security requirements.
enum class RouteAccess {
  Unspecified,
  Anyone,    // credentials are not looked at
  Optional,  // anonymous callers too; a signed-in caller's roles apply
  SignedIn,  // a session cookie, a JWT or a personal access token
  Session,   // a session cookie or a JWT; a personal access token is refused
};

struct RouteDoc {
  std::string summary{};            // one line
  std::string description{};        // Markdown
  std::vector<std::string> tags{};  // empty: the plugin's name
  RouteAccess access = RouteAccess::Unspecified;
  std::vector<ParamDoc> params{};  // path parameters left out are listed as strings
  std::optional<BodyDoc> body{};
  std::vector<AnswerDoc> answers{};
  // Named schemas for components.schemas, referred to with schemaRef("Name"). A name
  // declared twice (by any routes of any plugins) must be the same schema: docsd refuses
  // to start otherwise, as it does for a path parameter the template does not have or a
  // status listed twice.
  std::map<std::string, Json> schemas{};
};

// {"$ref": "#/components/schemas/<name>"}
Json schemaRef(std::string_view name);
// An answer with the JSON error body every failure uses (the core's "Error" schema).
AnswerDoc errorAnswer(int status, std::string description);
// A JSON answer whose body follows `schema`.
AnswerDoc jsonAnswer(int status, std::string description, Json schema);

}  // namespace docs
