#include "token_routes.hpp"

#include <docs/registry.hpp>
#include <docs/support/body_fields.hpp>

#include "auth_core.hpp"

namespace docs_auth {

using docs::AnswerDoc;
using docs::BodyDoc;
using docs::errorAnswer;
using docs::HttpError;
using docs::Json;
using docs::jsonAnswer;
using docs::Method;
using docs::ParamIn;
using docs::Registry;
using docs::Request;
using docs::Response;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::RouteOptions;
using docs::schemaRef;

namespace {

// A session (cookie or JWT), never an access token: a leaked token must not mint others.
SignedInSession sessionCaller(AuthCore& core, const Request& request) {
  auto signedIn = core.resolveSession(request);
  if (!signedIn) throw HttpError::unauthorized();
  return std::move(*signedIn);
}

struct TokenRequest {
  std::string name;
  std::optional<int> expiresInDays;
  std::string scope = "read";
};

TokenRequest parseTokenRequest(const Request& request) {
  Json body = request.jsonObject();
  docs::support::rejectUnknownFields(body, {"name", "expires_in_days", "scope"});
  TokenRequest out;
  out.name = docs::support::requiredString(body, "name");
  auto first = out.name.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw HttpError::badRequest("'name' must not be empty", "invalid_field");
  out.name = out.name.substr(first, out.name.find_last_not_of(" \t\r\n") - first + 1);
  if (docs::support::codePoints(out.name) > static_cast<std::size_t>(kMaxTokenNameChars))
    throw HttpError::badRequest("'name' is longer than " + std::to_string(kMaxTokenNameChars) + " characters",
                                "invalid_field");
  if (body.contains("expires_in_days") && !body["expires_in_days"].is_null()) {
    const auto& days = body["expires_in_days"];
    if (!days.is_number_integer() || days.get<std::int64_t>() < 1 || days.get<std::int64_t>() > kMaxTokenDays)
      throw HttpError::badRequest("'expires_in_days' must be a whole number from 1 to " + std::to_string(kMaxTokenDays),
                                  "invalid_field");
    out.expiresInDays = static_cast<int>(days.get<std::int64_t>());
  }
  if (auto scope = docs::support::optionalString(body, "scope")) {
    if (*scope != "read" && *scope != "write")
      throw HttpError::badRequest("'scope' must be read or write", "invalid_field");
    out.scope = *scope;
  }
  return out;
}

void noStore(Response& response) { response.setHeader("Cache-Control", "no-store"); }

// The routes' descriptions in GET /api/openapi.json.
Json tokenSchema() {
  Json time = {{"type", "string"}, {"format", "date-time"}};
  Json maybeTime = {{"oneOf", Json::array({Json{{"type", "null"}}, time})}};
  return {{"type", "object"},
          {"required", {"id", "name", "scope", "createdAt", "expiresAt", "lastUsedAt"}},
          {"properties",
           {{"id", {{"type", "string"}, {"pattern", "^[0-9]+$"}}},
            {"name", {{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxTokenNameChars}}},
            {"scope", {{"enum", {"read", "write"}}}},
            {"createdAt", time},
            {"expiresAt", maybeTime},
            {"lastUsedAt", maybeTime}}}};
}

RouteDoc createDoc() {
  RouteDoc doc;
  doc.summary = "Creates a personal access token; its value is in this answer only";
  doc.access = RouteAccess::Session;
  doc.body =
      BodyDoc{"application/json",
              {{"type", "object"},
               {"required", {"name"}},
               {"additionalProperties", false},
               {"properties",
                {{"name", {{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxTokenNameChars}}},
                 {"expires_in_days", {{"type", {"integer", "null"}}, {"minimum", 1}, {"maximum", kMaxTokenDays}}},
                 {"scope", {{"enum", {"read", "write"}}}}}}}};
  Json withValue = {{"type", "object"},
                    {"required", {"token"}},
                    {"properties", {{"token", {{"type", "string"}, {"pattern", "^docs_pat_[A-Za-z0-9_-]{43}$"}}}}}};
  doc.answers = {jsonAnswer(201, "the token, with its value",
                            {{"type", "object"},
                             {"allOf", Json::array({schemaRef("AccessToken"), withValue})},
                             {"unevaluatedProperties", false}}),
                 errorAnswer(400, "invalid_field, too_many_tokens"), errorAnswer(401, "signed out"),
                 errorAnswer(403, "token_not_allowed: called with a personal access token")};
  doc.schemas = {{"AccessToken", tokenSchema()}};
  return doc;
}

RouteDoc listDoc() {
  RouteDoc doc;
  doc.summary = "The caller's personal access tokens, newest first (never their values)";
  doc.access = RouteAccess::Session;
  doc.answers = {jsonAnswer(200, "the tokens",
                            {{"type", "object"},
                             {"required", {"tokens"}},
                             {"additionalProperties", false},
                             {"properties",
                              {{"tokens",
                                {{"type", "array"},
                                 {"items",
                                  {{"type", "object"},
                                   {"$ref", "#/components/schemas/AccessToken"},
                                   {"unevaluatedProperties", false}}}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "token_not_allowed")};
  doc.schemas = {{"AccessToken", tokenSchema()}};
  return doc;
}

RouteDoc revokeDoc() {
  RouteDoc doc;
  doc.summary = "Revokes one of the caller's tokens, on every node at once";
  doc.access = RouteAccess::Session;
  doc.params = {{"id", ParamIn::Path, "the token's id", true, {{"type", "string"}, {"pattern", "^[0-9]+$"}}}};
  doc.answers = {AnswerDoc{204, "revoked", "", nullptr}, errorAnswer(401, "signed out"),
                 errorAnswer(403, "token_not_allowed"), errorAnswer(404, "not a token of the caller's")};
  return doc;
}

}  // namespace

void addTokenRoutes(Registry& registry, AuthCore& core) {
  RouteOptions small;
  small.maxBodyBytes = 4 * 1024;

  registry.route(
      Method::Post, "/api/tokens",
      [&core](Request& request, Response& response) {
        auto caller = sessionCaller(core, request);
        auto wanted = parseTokenRequest(request);
        auto created = core.tokens().create(caller.user.id, wanted.name, wanted.expiresInDays, wanted.scope);
        noStore(response);
        Json answer = created.token.toJson();
        answer["token"] = created.secret;  // the only time it is ever shown
        response.json(answer, 201);
      },
      small, createDoc());

  registry.route(
      Method::Get, "/api/tokens",
      [&core](Request& request, Response& response) {
        auto caller = sessionCaller(core, request);
        Json list = Json::array();
        for (const auto& token : core.tokens().list(caller.user.id)) list.push_back(token.toJson());
        noStore(response);
        response.json({{"tokens", list}});
      },
      {}, listDoc());

  registry.route(
      Method::Delete, "/api/tokens/{id}",
      [&core](Request& request, Response& response) {
        auto caller = sessionCaller(core, request);
        // Another person's token is the same answer as a missing one.
        if (!core.tokens().revoke(caller.user.id, request.idParam("id")))
          throw HttpError::notFound("Access token not found");
        response.noContent();
      },
      {}, revokeDoc());
}

}  // namespace docs_auth
