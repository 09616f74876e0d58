#include "rbac_docs.hpp"

namespace docs_rbac {
namespace {

using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::schemaRef;

Json roleSchema() { return {{"enum", {"read", "write", "admin"}}}; }

Json grantSchema() {
  return {{"type", "object"},
          {"required", {"user_email", "role"}},
          {"additionalProperties", false},
          {"properties", {{"user_email", {{"type", "string"}, {"format", "email"}}}, {"role", roleSchema()}}}};
}

std::map<std::string, Json> schemas() { return {{"Grant", grantSchema()}}; }

Json projectId() { return {{"type", "integer"}, {"minimum", 1}}; }
Json email() { return {{"type", "string"}, {"format", "email"}}; }

Json bodyOf(std::vector<std::string> required, Json properties) {
  return {{"type", "object"}, {"required", required}, {"additionalProperties", false}, {"properties", properties}};
}

std::vector<docs::AnswerDoc> failures(std::vector<docs::AnswerDoc> answers) {
  answers.push_back(errorAnswer(400, "a missing or bad field, an unknown field"));
  answers.push_back(errorAnswer(401, "signed out"));
  answers.push_back(errorAnswer(403, "not an admin of the project, or the caller's own grant"));
  answers.push_back(errorAnswer(404, "Project not found, or the email has no access"));
  return answers;
}

}  // namespace

docs::RouteDoc listGrantsDoc() {
  docs::RouteDoc doc;
  doc.summary = "The project's members and their roles (members)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {{"id", docs::ParamIn::Path, "the project's id", true, projectId()}};
  doc.answers = {jsonAnswer(200, "the grants", {{"type", "array"}, {"items", schemaRef("Grant")}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "not a member"),
                 errorAnswer(404, "Project not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc grantDoc() {
  docs::RouteDoc doc;
  doc.summary = "Gives an email a role in a project (admins)";
  doc.description = "The email need not have an account yet: the grant applies when it signs in.";
  doc.access = docs::RouteAccess::SignedIn;
  doc.body = docs::BodyDoc{"application/json",
                           bodyOf({"project_id", "email", "role"},
                                  {{"project_id", projectId()}, {"email", email()}, {"role", roleSchema()}})};
  auto answers = failures({jsonAnswer(201, "the grant", schemaRef("Grant"))});
  answers.push_back(errorAnswer(409, "the email already has access"));
  doc.answers = answers;
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc changeGrantDoc() {
  docs::RouteDoc doc;
  doc.summary = "Changes a member's role (admins; a project keeps an admin)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.body = docs::BodyDoc{"application/json",
                           bodyOf({"project_id", "email", "new_role"},
                                  {{"project_id", projectId()}, {"email", email()}, {"new_role", roleSchema()}})};
  auto answers = failures({jsonAnswer(200, "the grant", schemaRef("Grant"))});
  answers.push_back(errorAnswer(409, "the last admin"));
  doc.answers = answers;
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc revokeDoc() {
  docs::RouteDoc doc;
  doc.summary = "Takes a member's access away (admins; a project keeps an admin)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.body = docs::BodyDoc{"application/json",
                           bodyOf({"project_id", "email"}, {{"project_id", projectId()}, {"email", email()}})};
  auto answers = failures({jsonAnswer(200, "the removed member",
                                      {{"type", "object"},
                                       {"required", {"user_email", "removed"}},
                                       {"additionalProperties", false},
                                       {"properties", {{"user_email", email()}, {"removed", {{"const", true}}}}}})});
  answers.push_back(errorAnswer(409, "the last admin"));
  doc.answers = answers;
  return doc;
}

}  // namespace docs_rbac
