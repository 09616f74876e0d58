#include "auth_docs.hpp"

namespace docs_auth {

using docs::AnswerDoc;
using docs::BodyDoc;
using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::schemaRef;

namespace {

Json text() { return {{"type", "string"}}; }

Json userSchema() {
  Json nullable = {{"type", {"string", "null"}}};
  return {{"type", "object"},
          {"required", {"id", "email", "name", "image", "login", "emailVerified", "createdAt", "updatedAt"}},
          {"additionalProperties", false},
          {"properties",
           {{"id", text()},
            {"email", {{"type", "string"}, {"format", "email"}}},
            {"name", text()},
            {"image", nullable},
            {"login", {{"type", {"string", "null"}}, {"description", "the GitHub login, once signed in with GitHub"}}},
            {"emailVerified", {{"const", true}}},
            {"createdAt", text()},
            {"updatedAt", text()}}}};
}

Json sessionSchema() {
  return {{"type", "object"},
          {"required", {"id", "userId", "createdAt", "expiresAt"}},
          {"additionalProperties", false},
          {"properties", {{"id", text()}, {"userId", text()}, {"createdAt", text()}, {"expiresAt", text()}}}};
}

Json signedInSchema() {
  return {{"type", "object"},
          {"required", {"user", "session"}},
          {"additionalProperties", false},
          {"properties", {{"user", schemaRef("User")}, {"session", schemaRef("Session")}}}};
}

std::map<std::string, Json> schemas() {
  return {{"User", userSchema()}, {"Session", sessionSchema()}, {"SignedIn", signedInSchema()}};
}

Json success() {
  return {{"type", "object"},
          {"required", {"success"}},
          {"additionalProperties", false},
          {"properties", {{"success", {{"const", true}}}}}};
}

Json objectWith(std::vector<std::string> required, Json properties) {
  return {{"type", "object"}, {"required", required}, {"properties", properties}};
}

AnswerDoc signedIn() {
  return jsonAnswer(200, "signed in: the session cookie is set and the set-auth-jwt header holds a JWT",
                    schemaRef("SignedIn"));
}

AnswerDoc tooMany() { return errorAnswer(429, "too many attempts or codes (Retry-After)"); }

}  // namespace

RouteDoc getSessionDoc() {
  RouteDoc doc;
  doc.summary = "The caller's user and session, or null when signed out";
  doc.description = "A session cookie or JWT also gets a fresh JWT in the set-auth-jwt header.";
  doc.access = RouteAccess::Optional;
  doc.answers = {jsonAnswer(200, "the session, or null",
                            {{"oneOf", Json::array({Json{{"type", "null"}}, schemaRef("SignedIn")})}}),
                 errorAnswer(401, "an invalid or revoked token")};
  doc.schemas = schemas();
  return doc;
}

RouteDoc tokenDoc() {
  RouteDoc doc;
  doc.summary = "A fresh JWT for the signed-in session";
  doc.access = RouteAccess::Session;
  doc.answers = {jsonAnswer(200, "the JWT", objectWith({"token"}, {{"token", text()}})),
                 errorAnswer(401, "signed out")};
  return doc;
}

RouteDoc jwksDoc() {
  RouteDoc doc;
  doc.summary = "The public keys JWTs are signed with (JWK Set)";
  doc.access = RouteAccess::Anyone;
  doc.answers = {jsonAnswer(
      200, "the key set",
      objectWith(
          {"keys"},
          {{"keys", {{"type", "array"}, {"items", objectWith({"kty", "kid"}, {{"kty", text()}, {"kid", text()}})}}}}))};
  return doc;
}

RouteDoc signOutDoc() {
  RouteDoc doc;
  doc.summary = "Ends the caller's session (and the cookie's); succeeds when already signed out";
  doc.access = RouteAccess::Optional;
  doc.answers = {jsonAnswer(200, "signed out; the cookie is cleared", success())};
  return doc;
}

RouteDoc deletionCodeDoc() {
  RouteDoc doc;
  doc.summary = "Mails a code to the account's address that confirms deleting it";
  doc.access = RouteAccess::Session;
  doc.answers = {jsonAnswer(200, "the code was sent", success()), errorAnswer(401, "signed out"), tooMany(),
                 errorAnswer(503, "the mail could not be sent")};
  return doc;
}

RouteDoc deleteUserDoc() {
  RouteDoc doc;
  doc.summary = "Deletes the caller's account, with the code mailed for it";
  doc.access = RouteAccess::Session;
  doc.body =
      BodyDoc{"application/json", objectWith({"otp"}, {{"otp", {{"type", "string"}, {"pattern", "^[0-9]{6}$"}}}})};
  doc.answers = {jsonAnswer(200, "deleted; the cookie is cleared", success()),
                 errorAnswer(400, "invalid_otp, otp_expired"), errorAnswer(401, "signed out"),
                 errorAnswer(403, "fresh_code_required (no otp), too_many_attempts"), tooMany()};
  return doc;
}

RouteDoc sendCodeDoc() {
  RouteDoc doc;
  doc.summary = "Mails a one-time sign-in code and link (the same answer whether the account exists or not)";
  doc.access = RouteAccess::Anyone;
  doc.body = BodyDoc{"application/json", objectWith({"email"}, {{"email", {{"type", "string"}, {"format", "email"}}},
                                                                {"type", {{"const", "sign-in"}}}})};
  doc.answers = {jsonAnswer(200, "sent", success()), errorAnswer(400, "invalid_email, invalid_type, missing_field"),
                 tooMany(), errorAnswer(503, "the mail could not be sent")};
  return doc;
}

RouteDoc signInWithCodeDoc() {
  RouteDoc doc;
  doc.summary = "Signs in with an email and the code mailed to it (the account is made at first sign-in)";
  doc.access = RouteAccess::Anyone;
  doc.body = BodyDoc{"application/json",
                     objectWith({"email", "otp"}, {{"email", {{"type", "string"}, {"format", "email"}}},
                                                   {"otp", {{"type", "string"}, {"pattern", "^[0-9]{6}$"}}}})};
  doc.answers = {signedIn(), errorAnswer(400, "invalid_email, invalid_otp, otp_expired"),
                 errorAnswer(403, "too_many_attempts: request a new code"), tooMany()};
  doc.schemas = schemas();
  return doc;
}

RouteDoc signInWithLinkDoc() {
  RouteDoc doc;
  doc.summary = "Signs in with the token of the link mailed with a code (once)";
  doc.access = RouteAccess::Anyone;
  doc.body = BodyDoc{"application/json", objectWith({"token"}, {{"token", text()}})};
  doc.answers = {signedIn(), errorAnswer(400, "invalid_link, missing_field"), tooMany()};
  doc.schemas = schemas();
  return doc;
}

RouteDoc socialSignInDoc() {
  RouteDoc doc;
  doc.summary = "Starts signing in with GitHub: the URL to send the browser to";
  doc.access = RouteAccess::Anyone;
  doc.body = BodyDoc{
      "application/json",
      objectWith({"provider"},
                 {{"provider", {{"const", "github"}}},
                  {"callbackURL",
                   {{"type", "string"}, {"description", "where to land after; a path or a URL of this deployment"}}}})};
  doc.answers = {
      jsonAnswer(200, "GitHub's authorization URL (a state cookie is set)",
                 {{"type", "object"},
                  {"required", {"url", "redirect"}},
                  {"additionalProperties", false},
                  {"properties", {{"url", {{"type", "string"}, {"format", "uri"}}}, {"redirect", {{"const", true}}}}}}),
      errorAnswer(400, "unsupported_provider, provider_not_configured, invalid_callback_url")};
  return doc;
}

RouteDoc githubCallbackDoc() {
  RouteDoc doc;
  doc.summary = "Where GitHub sends the browser back; signs in and redirects to the callback URL";
  doc.access = RouteAccess::Anyone;
  doc.params = {{"code", ParamIn::Query, "GitHub's authorization code", false, text()},
                {"state", ParamIn::Query, "the state the sign-in started with", false, text()},
                {"error", ParamIn::Query, "GitHub's refusal", false, text()}};
  doc.answers = {AnswerDoc{302, "to the callback URL, signed in; or to /login?error=<code>", "", {}}};
  return doc;
}

}  // namespace docs_auth
