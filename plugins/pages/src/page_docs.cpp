#include "page_docs.hpp"

namespace docs_pages {
namespace {

using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::schemaRef;

Json pageSchema() {
  Json time = {{"type", "string"}, {"format", "date-time"}};
  return {{"type", "object"},
          {"required", {"id", "project_id", "parent_id", "name", "type", "position", "created_at", "updated_at"}},
          {"properties",
           {{"id", {{"type", "integer"}}},
            {"project_id", {{"type", "integer"}}},
            {"parent_id", {{"type", "integer"}, {"minimum", 0}, {"description", "0: a root page"}}},
            {"name", {{"type", "string"}, {"minLength", 1}, {"maxLength", 255}}},
            {"type", {{"enum", {"file", "generated"}}}},
            {"position", {{"type", "integer"}}},
            {"created_at", time},
            {"updated_at", time}}}};
}

std::map<std::string, Json> schemas() { return {{"Page", pageSchema()}}; }

docs::ParamDoc pageId() {
  return {"id", docs::ParamIn::Path, "the page's id", true, {{"type", "integer"}, {"minimum", 1}}};
}

Json parentSchema() { return {{"type", {"integer", "null"}}, {"minimum", 0}}; }

}  // namespace

docs::RouteDoc createPageDoc() {
  docs::RouteDoc doc;
  doc.summary = "Adds a page last among its siblings (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {{"projectId", docs::ParamIn::Path, "the project's id", true, {{"type", "integer"}, {"minimum", 1}}}};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"properties", {{"parent_page_id", parentSchema()}, {"name", {{"type", "string"}}}}}},
                           "may be empty: a root page named Untitled",
                           false};
  doc.answers = {jsonAnswer(201, "the page", schemaRef("Page")),
                 errorAnswer(400, "the parent is not a page of this project, or a bad name"), errorAnswer(401, "signed out"),
                 errorAnswer(403, "a lower role"), errorAnswer(404, "Project not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc getPageDoc() {
  docs::RouteDoc doc;
  doc.summary = "A page with its stored Yjs document (base64, or null)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {pageId()};
  Json content = {{"oneOf", Json::array({Json{{"type", "null"}}, Json{{"type", "string"}, {"contentEncoding", "base64"}}})}};
  Json withContent = {{"type", "object"}, {"required", {"content_bytea"}}, {"properties", {{"content_bytea", content}}}};
  doc.answers = {jsonAnswer(200, "the page", {{"allOf", Json::array({schemaRef("Page"), withContent})}}),
                 errorAnswer(404, "Page not found, or a private project the caller may not read")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc updatePageDoc() {
  docs::RouteDoc doc;
  doc.summary = "Renames a page or moves it under another parent (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {pageId()};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"minProperties", 1},
                            {"properties", {{"name", {{"type", "string"}}}, {"parent_id", parentSchema()}}}}};
  doc.answers = {jsonAnswer(200, "the updated page", schemaRef("Page")),
                 errorAnswer(400, "invalid_field, invalid_move"), errorAnswer(401, "signed out"),
                 errorAnswer(403, "a lower role"), errorAnswer(404, "Page not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc deletePageDoc() {
  docs::RouteDoc doc;
  doc.summary = "Deletes a page and its whole subtree (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {pageId()};
  doc.answers = {jsonAnswer(200, "the deleted ids",
                            {{"type", "object"},
                             {"required", {"deleted"}},
                             {"additionalProperties", false},
                             {"properties", {{"deleted", {{"type", "array"}, {"minItems", 1}, {"items", {{"type", "integer"}}}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"), errorAnswer(404, "Page not found")};
  return doc;
}

}  // namespace docs_pages
