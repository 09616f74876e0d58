#include "generation_docs.hpp"

namespace docs_generation {

using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::ParamDoc;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;

namespace {

ParamDoc projectId() { return {"id", ParamIn::Path, "the project's id", true, {{"type", "integer"}, {"minimum", 1}}}; }

}  // namespace

RouteDoc generationStatusDoc() {
  RouteDoc doc;
  doc.summary =
      "Where the project's documentation run is: its status, the statuses it went through, the stage (readers)";
  doc.access = RouteAccess::Optional;
  doc.params = {projectId()};
  Json text = {{"type", "string"}};
  Json entry = {
      {"type", "object"},
      {"required", {"status", "message", "at"}},
      {"additionalProperties", false},
      {"properties", {{"status", text}, {"message", text}, {"at", {{"type", "string"}, {"format", "date-time"}}}}}};
  doc.answers = {
      jsonAnswer(200, "the run",
                 {{"type", "object"},
                  {"required", {"history"}},
                  {"additionalProperties", false},
                  {"properties",
                   {{"status",
                     {{"type", "string"}, {"description", "the project's status (REQUEST_TO_CLONE ... DOC_SUCCESS)"}}},
                    {"failed", {{"type", "boolean"}, {"description", "stopped at a failure: retry starts it again"}}},
                    {"history", {{"type", "array"}, {"items", entry}}},
                    {"stage", {{"type", "string"}, {"description", "the stage running or failed"}}},
                    {"message", text}}}}),
      errorAnswer(404, "Project not found, or a private project the caller may not read")};
  return doc;
}

RouteDoc retryGenerationDoc() {
  RouteDoc doc;
  doc.summary = "Starts a failed run again from the stage that failed (writers)";
  doc.access = RouteAccess::SignedIn;
  doc.params = {projectId()};
  doc.answers = {jsonAnswer(202, "queued",
                            {{"type", "object"},
                             {"required", {"stage"}},
                             {"additionalProperties", false},
                             {"properties", {{"stage", {{"type", "string"}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Project not found"), errorAnswer(409, "not_failed: nothing to retry")};
  return doc;
}

RouteDoc sourceFileDoc() {
  RouteDoc doc;
  doc.summary = "One text file of the project's sources, for the source view (readers)";
  doc.access = RouteAccess::Optional;
  doc.params = {projectId(),
                {"path",
                 ParamIn::Query,
                 "the file's path in the sources (no '..', not absolute)",
                 true,
                 {{"type", "string"}, {"maxLength", 1024}}}};
  Json text = {{"type", "string"}};
  doc.answers = {
      jsonAnswer(
          200, "the file",
          {{"type", "object"},
           {"required", {"path", "text", "truncated"}},
           {"additionalProperties", false},
           {"properties",
            {{"path", text},
             {"text", {{"type", "string"}, {"description", "the file as UTF-8, at most 1 MiB"}}},
             {"truncated", {{"type", "boolean"}}},
             {"web_url",
              {{"type", "string"}, {"description", "a repository project's: the file on its host at the commit"}}},
             {"commit", {{"type", "string"}, {"description", "the commit the sources are at"}}}}}}),
      errorAnswer(400, "invalid_path: a path outside the sources"),
      errorAnswer(404, "Project not found, or no text file of that path in its sources")};
  return doc;
}

}  // namespace docs_generation
