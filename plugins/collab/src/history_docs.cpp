#include "history_docs.hpp"

namespace docs_collab {

using docs::AnswerDoc;
using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::ParamDoc;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::schemaRef;

namespace {

Json id() { return {{"type", "integer"}, {"minimum", 1}}; }

Json versionSchema() {
  Json author = {{"type", "object"},
                 {"required", {"id", "name"}},
                 {"additionalProperties", false},
                 {"properties", {{"id", {{"type", "string"}}}, {"name", {{"type", "string"}}}}}};
  return {{"type", "object"},
          {"required", {"id", "created_at", "authors", "label", "kind"}},
          {"properties",
           {{"id", id()},
            {"created_at", {{"type", "string"}}},
            {"authors", {{"type", "array"}, {"items", author}}},
            {"label", {{"type", {"string", "null"}}}},
            {"kind", {{"enum", {"edit", "baseline", "labelled", "restore"}}}}}}};
}

Json proseMirrorDoc() {
  return {{"type", "object"},
          {"required", {"type"}},
          {"properties", {{"type", {{"const", "doc"}}}}},
          {"description", "the page as ProseMirror JSON"}};
}

std::map<std::string, Json> schemas() { return {{"PageVersion", versionSchema()}}; }

ParamDoc pageId() { return {"id", ParamIn::Path, "the page's id", true, id()}; }
ParamDoc versionId() { return {"version", ParamIn::Path, "the version's id", true, id()}; }

std::vector<AnswerDoc> readFailures() {
  return {errorAnswer(400, "a bad query parameter"),
          errorAnswer(404, "Page or version not found, or a project the caller may not read"),
          errorAnswer(422, "the stored document cannot be read")};
}

}  // namespace

RouteDoc listVersionsDoc() {
  RouteDoc doc;
  doc.summary = "The page's versions, newest first, a page at a time (readers)";
  doc.access = RouteAccess::Optional;
  doc.params = {
      pageId(),
      {"limit",
       ParamIn::Query,
       "versions a page (default 50, at most 200)",
       false,
       {{"type", "integer"}, {"minimum", 1}}},
      {"cursor", ParamIn::Query, "next_cursor of the previous page", false, {{"type", "integer"}, {"minimum", 1}}}};
  auto answers = readFailures();
  answers.insert(answers.begin(), jsonAnswer(200, "a page of versions",
                                             {{"type", "object"},
                                              {"required", {"versions", "next_cursor"}},
                                              {"additionalProperties", false},
                                              {"properties",
                                               {{"versions", {{"type", "array"}, {"items", schemaRef("PageVersion")}}},
                                                {"next_cursor", {{"type", {"integer", "null"}}}}}}}));
  doc.answers = answers;
  doc.schemas = schemas();
  return doc;
}

RouteDoc getVersionDoc() {
  RouteDoc doc;
  doc.summary = "A version: JSON with its document, Markdown, or HTML as a download (readers)";
  doc.access = RouteAccess::Optional;
  doc.params = {pageId(),
                versionId(),
                {"format", ParamIn::Query, "json (default), md or html", false, {{"enum", {"json", "md", "html"}}}}};
  Json withDoc = {{"type", "object"}, {"required", {"doc"}}, {"properties", {{"doc", proseMirrorDoc()}}}};
  auto answers = readFailures();
  answers.insert(answers.begin(),
                 jsonAnswer(200, "the version (format=json; text/markdown or text/html for md and html)",
                            {{"allOf", Json::array({schemaRef("PageVersion"), withDoc})}}));
  doc.answers = answers;
  doc.schemas = schemas();
  return doc;
}

RouteDoc diffVersionDoc() {
  RouteDoc doc;
  doc.summary = "What changed from the current page (or another version) to this version, block by block (readers)";
  doc.access = RouteAccess::Optional;
  doc.params = {pageId(),
                versionId(),
                {"against", ParamIn::Query, "current (default) or a version id", false, {{"type", "string"}}}};
  Json run = {{"type", "object"},
              {"required", {"op", "text"}},
              {"properties", {{"op", {{"enum", {"equal", "delete", "insert"}}}}, {"text", {{"type", "string"}}}}}};
  Json block = {{"type", "object"},
                {"required", {"change"}},
                {"properties",
                 {{"change", {{"enum", {"same", "added", "removed", "changed"}}}},
                  {"block", {{"type", "object"}}},
                  {"before", {{"type", "object"}}},
                  {"after", {{"type", "object"}}},
                  {"text", {{"type", "array"}, {"items", run}}}}}};
  Json count = {{"type", "integer"}, {"minimum", 0}};
  auto answers = readFailures();
  answers.insert(answers.begin(),
                 jsonAnswer(200, "the changes",
                            {{"type", "object"},
                             {"required", {"added", "removed", "changed", "blocks", "version", "against"}},
                             {"additionalProperties", false},
                             {"properties",
                              {{"added", count},
                               {"removed", count},
                               {"changed", count},
                               {"blocks", {{"type", "array"}, {"items", block}}},
                               {"version", id()},
                               {"against", {{"type", "string"}}}}}}));
  doc.answers = answers;
  return doc;
}

RouteDoc restoreVersionDoc() {
  RouteDoc doc;
  doc.summary = "Makes the page equal to the version, for everyone editing it (writers)";
  doc.description = "The page as it was before is kept as a version first (before_version).";
  doc.access = RouteAccess::SignedIn;
  doc.params = {pageId(), versionId()};
  doc.answers = {jsonAnswer(200, "restored",
                            {{"type", "object"},
                             {"required", {"restored", "before_version"}},
                             {"additionalProperties", false},
                             {"properties", {{"restored", id()}, {"before_version", id()}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Page or version not found"), errorAnswer(422, "the version cannot be read")};
  return doc;
}

}  // namespace docs_collab
