#include "comment_docs.hpp"

namespace docs_comments {
namespace {

using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::schemaRef;

Json id() { return {{"type", "integer"}, {"minimum", 1}}; }
Json text() { return {{"type", "string"}}; }
Json nullableText() { return {{"type", {"string", "null"}}}; }

Json authorSchema() {
  return {{"type", "object"},
          {"required", {"id", "name"}},
          {"additionalProperties", false},
          {"properties", {{"id", text()}, {"name", text()}}}};
}

Json commentSchema() {
  return {{"type", "object"},
          {"required", {"id", "thread_id", "author", "body", "created_at", "edited_at"}},
          {"additionalProperties", false},
          {"properties",
           {{"id", id()},
            {"thread_id", id()},
            {"author", schemaRef("CommentAuthor")},
            {"body", {{"type", "string"}, {"description", "Markdown: bold, italic, code, links, @mentions"}}},
            {"created_at", text()},
            {"edited_at", nullableText()}}}};
}

Json threadSchema() {
  return {{"type", "object"},
          {"required",
           {"id", "page_id", "project_id", "author", "quote", "resolved", "resolved_at", "resolved_by", "detached",
            "created_at", "comments"}},
          {"additionalProperties", false},
          {"properties",
           {{"id", id()},
            {"page_id", id()},
            {"project_id", id()},
            {"author", schemaRef("CommentAuthor")},
            {"quote", {{"type", "string"}, {"description", "the passage the thread is about; empty: the whole page"}}},
            {"resolved", {{"type", "boolean"}}},
            {"resolved_at", nullableText()},
            {"resolved_by", {{"oneOf", Json::array({Json{{"type", "null"}}, schemaRef("CommentAuthor")})}}},
            {"detached", {{"type", "boolean"}, {"description", "its passage is no longer in the page"}}},
            {"created_at", text()},
            {"comments", {{"type", "array"}, {"items", schemaRef("Comment")}}}}}};
}

std::map<std::string, Json> schemas() {
  return {{"CommentAuthor", authorSchema()}, {"Comment", commentSchema()}, {"CommentThread", threadSchema()}};
}

Json threadAndComment() {
  return {{"type", "object"},
          {"required", {"thread", "comment"}},
          {"additionalProperties", false},
          {"properties", {{"thread", schemaRef("CommentThread")}, {"comment", schemaRef("Comment")}}}};
}

docs::ParamDoc pageId() { return {"id", docs::ParamIn::Path, "the page's id", true, id()}; }
docs::ParamDoc commentId() { return {"id", docs::ParamIn::Path, "the comment's id", true, id()}; }

}  // namespace

docs::RouteDoc listCommentsDoc() {
  docs::RouteDoc doc;
  doc.summary = "The page's comment threads, oldest first (readers)";
  doc.access = docs::RouteAccess::Optional;
  doc.params = {pageId()};
  doc.answers = {jsonAnswer(200, "the threads, and whether the caller may comment",
                            {{"type", "object"},
                             {"required", {"threads", "can_comment"}},
                             {"additionalProperties", false},
                             {"properties",
                              {{"threads", {{"type", "array"}, {"items", schemaRef("CommentThread")}}},
                               {"can_comment", {{"type", "boolean"}}}}}}),
                 errorAnswer(404, "Page not found, or a private project the caller may not read")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc createCommentDoc() {
  docs::RouteDoc doc;
  doc.summary = "Starts a thread on the page, or answers one (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {pageId()};
  doc.body = docs::BodyDoc{"application/json",
                           {{"type", "object"},
                            {"required", {"body"}},
                            {"additionalProperties", false},
                            {"properties",
                             {{"body", {{"type", "string"}, {"minLength", 1}, {"maxLength", 10000}}},
                              {"thread_id", {{"type", {"integer", "null"}}, {"description", "answer this thread"}}},
                              {"quote", {{"type", "string"}, {"description", "a new thread's passage"}}}}}}};
  doc.answers = {jsonAnswer(201, "the thread and the new comment", threadAndComment()),
                 errorAnswer(400, "an empty or too long body, an unknown field, a quote with thread_id"),
                 errorAnswer(401, "signed out"),
                 errorAnswer(403, "a lower role"),
                 errorAnswer(404, "Page or thread not found"),
                 errorAnswer(413, "the request is too large"),
                 errorAnswer(429, "too many comments a minute (Retry-After)")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc updateCommentDoc() {
  docs::RouteDoc doc;
  doc.summary = "Edits a comment (its author) or resolves and reopens its thread (writers)";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {commentId()};
  doc.body = docs::BodyDoc{
      "application/json",
      {{"type", "object"},
       {"minProperties", 1},
       {"additionalProperties", false},
       {"properties", {{"body", {{"type", "string"}, {"minLength", 1}}}, {"resolved", {{"type", "boolean"}}}}}}};
  doc.answers = {jsonAnswer(200, "the thread and the comment", threadAndComment()),
                 errorAnswer(400, "neither body nor resolved, a bad body"),
                 errorAnswer(401, "signed out"),
                 errorAnswer(403, "a lower role, or another author's text"),
                 errorAnswer(404, "Comment not found"),
                 errorAnswer(429, "too many comments a minute (Retry-After)")};
  doc.schemas = schemas();
  return doc;
}

docs::RouteDoc deleteCommentDoc() {
  docs::RouteDoc doc;
  doc.summary = "Deletes a comment (its author); the thread goes with its last comment";
  doc.access = docs::RouteAccess::SignedIn;
  doc.params = {commentId()};
  doc.answers = {jsonAnswer(200, "what was deleted",
                            {{"type", "object"},
                             {"required", {"id", "deleted", "thread_id", "thread_deleted"}},
                             {"additionalProperties", false},
                             {"properties",
                              {{"id", id()},
                               {"deleted", {{"const", true}}},
                               {"thread_id", id()},
                               {"thread_deleted", {{"type", "boolean"}}}}}}),
                 errorAnswer(401, "signed out"), errorAnswer(403, "a lower role, or another author's comment"),
                 errorAnswer(404, "Comment not found"), errorAnswer(429, "too many comments a minute (Retry-After)")};
  return doc;
}

}  // namespace docs_comments
