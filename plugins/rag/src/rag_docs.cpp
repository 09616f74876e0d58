#include "rag_docs.hpp"

namespace docs_rag {

using docs::BodyDoc;
using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::schemaRef;

namespace {

Json hitSchema() {
  Json text = {{"type", "string"}};
  Json line = {{"type", "integer"}, {"minimum", 0}};
  return {
      {"type", "object"},
      {"required",
       {"source", "content", "git_url", "description", "page_id", "project_id", "path", "start_line", "end_line",
        "symbol", "title", "score"}},
      {"additionalProperties", false},
      {"properties",
       {{"source", {{"enum", {"code", "docs"}}}},
        {"content", text},
        {"git_url", {{"type", {"string", "null"}}, {"description", "the exact lines on the repository's web host"}}},
        {"description", text},
        {"page_id", {{"type", {"integer", "null"}}}},
        {"project_id", {{"type", "integer"}}},
        {"path", text},
        {"start_line", line},
        {"end_line", line},
        {"symbol", text},
        {"title", text},
        {"score", {{"type", "number"}}}}}};
}

}  // namespace

RouteDoc ragQueryDoc() {
  RouteDoc doc;
  doc.summary = "Searches the readable projects' code and docs, or answers a question from them";
  doc.description =
      "is_llm false: the matching passages, best first. is_llm true: a Markdown answer citing them, written "
      "by the configured model within the caller's daily token budget, else quoting the best passages.";
  doc.access = RouteAccess::Optional;
  Json topK = {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000}};
  doc.body = BodyDoc{"application/json",
                     {{"type", "object"},
                      {"required", {"query"}},
                      {"additionalProperties", false},
                      {"properties",
                       {{"query", {{"type", "string"}, {"minLength", 1}}},
                        {"is_all", {{"type", "boolean"}, {"description", "every project the caller may read"}}},
                        {"is_code", {{"type", "boolean"}}},
                        {"is_docs", {{"type", "boolean"}}},
                        {"is_llm", {{"type", "boolean"}}},
                        {"code_top_k", topK},
                        {"docs_top_k", topK},
                        {"projectIds", {{"type", {"array", "null"}}, {"items", {{"type", "integer"}}}}}}}}};
  doc.answers = {
      jsonAnswer(200, "the passages (is_llm false) or the answer's Markdown (is_llm true)",
                 {{"oneOf",
                   Json::array({Json{{"type", "array"}, {"items", schemaRef("RagHit")}}, Json{{"type", "string"}}})}}),
      errorAnswer(400, "empty_query, query_too_long, nothing_to_search, no_projects, invalid_projectIds, ..."),
      errorAnswer(413, "the request is too large"), errorAnswer(429, "rate_limited (Retry-After)")};
  doc.schemas = {{"RagHit", hitSchema()}};
  return doc;
}

}  // namespace docs_rag
