#include "project_docs.hpp"

namespace docs_projects {
namespace {

using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::schemaRef;

Json nullable(Json schema) { return {{"oneOf", Json::array({Json{{"type", "null"}}, std::move(schema)})}}; }

Json projectSchema() {
  Json time = {{"type", "string"}, {"format", "date-time"}};
  return {{"type", "object"},
          {"required",
           {"id", "type", "name", "description", "language", "git_url", "git_repository_id", "github_node_id",
            "installation_id", "status", "visibility", "commit_hash", "rag_status", "default_page_id", "role",
            "created_at", "updated_at"}},
          {"properties",
           {{"id", {{"type", "integer"}}},
            {"type", {{"enum", {"github", "user"}}}},
            {"name", {{"type", "string"}}},
            {"description", {{"type", "string"}}},
            {"language", {{"type", "string"}}},
            {"git_url", nullable({{"type", "string"}})},
            {"git_repository_id", nullable({{"type", "integer"}})},
            {"github_node_id", nullable({{"type", "string"}})},
            {"installation_id", nullable({{"type", "integer"}})},
            {"status", {{"type", "string"}}},
            {"visibility", {{"enum", {"public", "private"}}}},
            {"commit_hash", nullable({{"type", "string"}})},
            {"rag_status", {{"type", "string"}}},
            {"default_page_id", nullable({{"type", "integer"}})},
            {"role", nullable({{"enum", {"read", "write", "admin"}}})},
            {"created_at", time},
            {"updated_at", time}}}};
}

// The pages of GET /api/project (the pages plugin's page object, flat, no content).
Json projectPageSchema() {
  Json time = {{"type", "string"}, {"format", "date-time"}};
  return {{"type", "object"},
          {"required", {"id", "project_id", "parent_id", "name", "type", "position", "created_at", "updated_at"}},
          {"additionalProperties", false},
          {"properties",
           {{"id", {{"type", "integer"}}},
            {"project_id", {{"type", "integer"}}},
            {"parent_id", {{"type", "integer"}, {"minimum", 0}}},
            {"name", {{"type", "string"}}},
            {"type", {{"enum", {"file", "generated"}}}},
            {"position", {{"type", "integer"}}},
            {"created_at", time},
            {"updated_at", time}}}};
}

std::map<std::string, Json> schemas() { return {{"Project", projectSchema()}, {"ProjectPage", projectPageSchema()}}; }

docs::ParamDoc idParam() {
  return {"id", docs::ParamIn::Path, "the project's id", true, {{"type", "integer"}, {"minimum", 1}}};
}

}  // namespace

docs::RouteDoc listProjectsDoc() {
  docs::RouteDoc doc;
  doc.summary = "The projects the caller holds a role in, by badge order, then name";
  doc.access = docs::RouteAccess::SignedIn;
  doc.answers = {jsonAnswer(200, "the projects", {{"type", "array"}, {"items", schemaRef("Project")}}),
                 errorAnswer(401, "signed out")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc getProjectDoc() {
  docs::RouteDoc doc;
  doc.summary = "A project and its page tree (flat, no content), by id or by repository URL";
  doc.description =
      "Give `projectId` or `gitUrl`. A private project the caller may not read is a 404, as a missing one.";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {{"projectId", docs::ParamIn::Query, "the project's id", false, {{"type", "integer"}, {"minimum", 1}}},
                {"gitUrl",
                 docs::ParamIn::Query,
                 "the repository's URL: github.com/o/r, with or without scheme, www., .git",
                 false,
                 {{"type", "string"}}}};
  Json withPages = {{"type", "object"},
                    {"required", {"pages"}},
                    {"properties", {{"pages", {{"type", "array"}, {"items", schemaRef("ProjectPage")}}}}}};
  doc.answers = {
      jsonAnswer(200, "the project with \"pages\"", {{"allOf", Json::array({schemaRef("Project"), withPages})}}),
      errorAnswer(400, "neither parameter, or not a GitHub URL"), errorAnswer(404, "Project not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc createProjectDoc(bool zip) {
  docs::RouteDoc doc;
  doc.summary = zip ? "Creates a project to upload a ZIP into (status IDLE, no pages)"
                    : "Creates an empty project with one page (status READY)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"required", {"name"}},
                            {"additionalProperties", false},
                            {"properties",
                             {{"name", {{"type", "string"}, {"maxLength", 120}}},
                              {"is_private", {{"type", "boolean"}}},
                              {"language", {{"enum", {"en", "ru", "de"}}}}}}}};
  doc.answers = {jsonAnswer(201, "the project", schemaRef("Project")), errorAnswer(400, "invalid_field"),
                 errorAnswer(401, "signed out")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc updateProjectDoc() {
  docs::RouteDoc doc;
  doc.summary = "Renames, describes or changes the visibility of a project";
  doc.description = "Writers; `visibility` needs an admin.";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {idParam()};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"minProperties", 1},
                            {"additionalProperties", false},
                            {"properties",
                             {{"name", {{"type", "string"}}},
                              {"description", {{"type", "string"}, {"maxLength", 1000}}},
                              {"visibility", {{"enum", {"public", "private"}}}}}}}};
  doc.answers = {jsonAnswer(200, "the updated project", schemaRef("Project")), errorAnswer(400, "invalid_field"),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Project not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc deleteProjectDoc() {
  docs::RouteDoc doc;
  doc.summary = "Deletes a project with its pages, grants, uploads and images (admins)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {idParam()};
  doc.answers = {jsonAnswer(200, "deleted",
                            {{"type", "object"},
                             {"required", {"id", "deleted"}},
                             {"additionalProperties", false},
                             {"properties", {{"id", {{"type", "integer"}}}, {"deleted", {{"const", true}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "not an admin"),
                 errorAnswer(404, "Project not found")};
  return doc;
}

docs::RouteDoc createGithubProjectDoc() {
  docs::RouteDoc doc;
  doc.summary = "Creates a project from a GitHub repository (status REQUEST_TO_CLONE; generation clones it)";
  doc.description = "With a GitHub App configured, the App and the caller must both be able to read the repository.";
  doc.access = docs::RouteAccess::SignedIn;
  Json part = {{"type", "string"}, {"pattern", "^[A-Za-z0-9_.-]+$"}};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"required", {"repo_owner", "repo_name", "name", "language", "is_private"}},
                            {"additionalProperties", false},
                            {"properties",
                             {{"repo_owner", part},
                              {"repo_name", part},
                              {"name", {{"type", "string"}, {"maxLength", 120}}},
                              {"language", {{"enum", {"en", "ru", "de"}}}},
                              {"is_private", {{"type", "boolean"}}}}}}};
  doc.answers = {jsonAnswer(201, "the project", schemaRef("Project")),
                 errorAnswer(400, "invalid_field"),
                 errorAnswer(401, "signed out"),
                 errorAnswer(403, "installation_required: install the GitHub App"),
                 errorAnswer(404, "the repository is a private project the caller may not read"),
                 errorAnswer(409, "the repository already is a project"),
                 errorAnswer(502, "github_unavailable")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc uploadZipDoc() {
  docs::RouteDoc doc;
  doc.summary = "Uploads the ZIP of a ZIP project; generation unpacks it (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {idParam()};
  doc.body = docs::BodyDoc{"multipart/form-data",
                           {{"type", "object"},
                            {"required", {"file"}},
                            {"properties", {{"file", {{"type", "string"}, {"contentMediaType", "application/zip"}}}}}},
                           "the ZIP in the field 'file', less than 100 MB"};
  doc.answers = {
      jsonAnswer(200, "stored",
                 {{"type", "object"},
                  {"required", {"project_id", "file_name", "size", "status"}},
                  {"additionalProperties", false},
                  {"properties",
                   {{"project_id", {{"type", "integer"}}},
                    {"file_name", {{"type", "string"}}},
                    {"size", {{"type", "integer"}, {"minimum", 1}}},
                    {"status", {{"type", "string"}, {"description", "the project's status before unpacking"}}}}}}),
      errorAnswer(400, "not multipart, not a ZIP, empty, or no field 'file'"),
      errorAnswer(401, "signed out"),
      errorAnswer(403, "a lower role"),
      errorAnswer(404, "Project not found"),
      errorAnswer(413, "too large, or quota_exceeded")};
  return doc;
}

}  // namespace docs_projects
