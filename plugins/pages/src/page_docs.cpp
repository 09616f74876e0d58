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
  doc.body = docs::BodyDoc{
      "application/json",
      {{"type", "object"}, {"properties", {{"parent_page_id", parentSchema()}, {"name", {{"type", "string"}}}}}},
      "may be empty: a root page named Untitled",
      false};
  doc.answers = {jsonAnswer(201, "the page", schemaRef("Page")),
                 errorAnswer(400, "the parent is not a page of this project, or a bad name"),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Project not found")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc getPageDoc() {
  docs::RouteDoc doc;
  doc.summary = "A page with its stored Yjs document (base64, or null)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {pageId()};
  Json content = {
      {"oneOf", Json::array({Json{{"type", "null"}}, Json{{"type", "string"}, {"contentEncoding", "base64"}}})}};
  Json withContent = {
      {"type", "object"}, {"required", {"content_bytea"}}, {"properties", {{"content_bytea", content}}}};
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
                             {"properties",
                              {{"deleted", {{"type", "array"}, {"minItems", 1}, {"items", {{"type", "integer"}}}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"), errorAnswer(404, "Page not found")};
  return doc;
}

namespace {

std::vector<docs::ParamDoc> imageParams(bool withName) {
  Json id = {{"type", "integer"}, {"minimum", 1}};
  std::vector<docs::ParamDoc> params = {{"projectId", docs::ParamIn::Path, "the project's id", true, id},
                                        {"pageId", docs::ParamIn::Path, "the page's id", true, id}};
  if (withName)
    params.push_back(
        {"name", docs::ParamIn::Path, "the image's file name, as its upload answered", true, {{"type", "string"}}});
  return params;
}

Json unixTime() { return {{"type", "integer"}, {"description", "seconds since 1970"}}; }

}  // namespace

docs::RouteDoc getContentDoc() {
  docs::RouteDoc doc;
  doc.summary = "The page's Yjs document with every accepted edit, base64 (readers)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {pageId()};
  doc.answers = {jsonAnswer(200, "the document",
                            {{"type", "object"},
                             {"required", {"content_bytea"}},
                             {"additionalProperties", false},
                             {"properties", {{"content_bytea", {{"type", "string"}, {"contentEncoding", "base64"}}}}}}),
                 errorAnswer(404, "Page not found, no stored content, or a project the caller may not read")};
  return doc;
}

docs::RouteDoc putContentDoc() {
  docs::RouteDoc doc;
  doc.summary = "Merges a Yjs update into the page (writers)";
  doc.description =
      "The update is merged into the page's document (stored content and edits not yet folded; "
      "merged: true), never replacing it; editors who have the page open receive it.";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {pageId()};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"required", {"content_bytea"}},
                            {"additionalProperties", false},
                            {"properties", {{"content_bytea", {{"type", "string"}, {"contentEncoding", "base64"}}}}}}};
  doc.answers = {jsonAnswer(200, "stored",
                            {{"type", "object"},
                             {"required", {"id", "bytes", "merged"}},
                             {"additionalProperties", false},
                             {"properties",
                              {{"id", {{"type", "integer"}}},
                               {"bytes", {{"type", "integer"}, {"minimum", 1}}},
                               {"merged", {{"type", "boolean"}}}}}}),
                 errorAnswer(400, "not a base64 Yjs update, or one that does not apply"),
                 errorAnswer(401, "signed out"),
                 errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Page not found"),
                 errorAnswer(413, "the request is too large")};
  return doc;
}

docs::RouteDoc exportPageDoc() {
  docs::RouteDoc doc;
  doc.summary = "The page as Markdown or as sandboxed HTML (readers)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {
      pageId(),
      {"format", docs::ParamIn::Query, "md or html", true, {{"enum", {"md", "html"}}}},
      {"disposition", docs::ParamIn::Query, "inline: HTML shown, not downloaded", false, {{"enum", {"inline"}}}}};
  docs::AnswerDoc markdown{200, "the page (text/markdown for md, text/html for html)", "text/markdown", {}};
  doc.answers = {markdown, errorAnswer(400, "a bad format"),
                 errorAnswer(404, "Page not found, or a project the caller may not read"),
                 errorAnswer(422, "the stored content cannot be read")};
  return doc;
}

docs::RouteDoc uploadImageDoc() {
  docs::RouteDoc doc;
  doc.summary = "Stores an image for the page: PNG, JPEG, GIF or WebP, at most 20 MB (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = imageParams(false);
  doc.body = docs::BodyDoc{"image/*", {}, "the image's bytes; its Content-Type must match them", true};
  doc.answers = {
      jsonAnswer(200, "where the image is served",
                 {{"type", "object"},
                  {"required", {"url", "signed_url", "expires_at"}},
                  {"additionalProperties", false},
                  {"properties",
                   {{"url", {{"type", "string"}}},
                    {"signed_url", {{"type", "string"}, {"description", "works without credentials until expires_at"}}},
                    {"expires_at", unixTime()}}}}),
      errorAnswer(400, "unsupported_type, an empty or incomplete upload"),
      errorAnswer(401, "signed out"),
      errorAnswer(403, "a lower role"),
      errorAnswer(404, "Page not found in this project"),
      errorAnswer(413, "File size too big (max 20MB).")};
  return doc;
}

docs::RouteDoc serveImageDoc() {
  docs::RouteDoc doc;
  doc.summary = "An image of the page (readers, or anyone with a valid signature)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = imageParams(true);
  doc.params.push_back({"expires", docs::ParamIn::Query, "a signed URL's expiry", false, {{"type", "integer"}}});
  doc.params.push_back({"signature", docs::ParamIn::Query, "a signed URL's signature", false, {{"type", "string"}}});
  doc.answers = {docs::AnswerDoc{200, "the image", "image/*", {{"type", "string"}, {"contentMediaType", "image/*"}}},
                 errorAnswer(404, "Image not found, or a project the caller may not read")};
  return doc;
}

docs::RouteDoc signImageDoc() {
  docs::RouteDoc doc;
  doc.summary = "A fresh signed URL of an image (readers)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = imageParams(true);
  doc.answers = {jsonAnswer(200, "the signed URL",
                            {{"type", "object"},
                             {"required", {"url", "expires_at"}},
                             {"additionalProperties", false},
                             {"properties", {{"url", {{"type", "string"}}}, {"expires_at", unixTime()}}}}),
                 errorAnswer(404, "Image not found, or a project the caller may not read")};
  return doc;
}

}  // namespace docs_pages
