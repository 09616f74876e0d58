#include "mcp_docs.hpp"

namespace docs_mcp {

using docs::AnswerDoc;
using docs::BodyDoc;
using docs::errorAnswer;
using docs::Json;
using docs::jsonAnswer;
using docs::ParamDoc;
using docs::ParamIn;
using docs::RouteAccess;
using docs::RouteDoc;
using docs::schemaRef;

namespace {

// A JSON-RPC 2.0 response: a result or an error.
Json rpcAnswerSchema() {
  Json error = {{"type", "object"},
                {"required", {"code", "message"}},
                {"properties", {{"code", {{"type", "integer"}}}, {"message", {{"type", "string"}}}}}};
  auto answer = [](const char* field, Json schema) {
    return Json{
        {"type", "object"},
        {"required", {"jsonrpc", "id", field}},
        {"properties",
         {{"jsonrpc", {{"const", "2.0"}}}, {"id", {{"type", {"string", "integer", "null"}}}}, {field, schema}}}};
  };
  return {{"oneOf", Json::array({answer("result", {{"type", "object"}}), answer("error", error)})}};
}

std::map<std::string, Json> schemas() { return {{"JsonRpcAnswer", rpcAnswerSchema()}}; }

ParamDoc sessionHeader(bool required) {
  return {"Mcp-Session-Id",
          ParamIn::Header,
          "the session initialize answered with (every message after it)",
          required,
          {{"type", "string"}}};
}

std::vector<AnswerDoc> callerFailures() {
  return {errorAnswer(401, "invalid_token: a bad Bearer (none: public projects only)"),
          errorAnswer(403, "origin_not_allowed: a browser page of another origin")};
}

}  // namespace

RouteDoc postMcpDoc() {
  RouteDoc doc;
  doc.summary = "Model Context Protocol (Streamable HTTP): a JSON-RPC 2.0 message";
  doc.description =
      "initialize opens a session (its id in the Mcp-Session-Id answer header); then ping, tools/list and "
      "tools/call (list_projects, read_wiki_structure, read_wiki_contents, ask_question, search). "
      "Protocol 2025-11-25, also 2025-06-18 and 2025-03-26 (with batches: an array of messages). "
      "See docs/mcp.md.";
  doc.tags = {"mcp"};
  doc.access = RouteAccess::Optional;
  doc.params = {
      sessionHeader(false),
      {"MCP-Protocol-Version", ParamIn::Header, "the negotiated protocol version", false, {{"type", "string"}}}};
  doc.body = BodyDoc{"application/json",
                     {{"type", {"object", "array"}},
                      {"description", "a JSON-RPC 2.0 request or notification (an array: a 2025-03-26 batch)"}}};
  Json answer = {{"oneOf", Json::array({schemaRef("JsonRpcAnswer"),
                                        Json{{"type", "array"}, {"items", schemaRef("JsonRpcAnswer")}}})}};
  doc.answers = {
      jsonAnswer(200, "the JSON-RPC answer (or a batch's answers)", answer),
      AnswerDoc{202, "a notification or response: accepted", "", {}},
      jsonAnswer(400, "a JSON-RPC error: not JSON, not a message, no session, an unsupported version",
                 schemaRef("JsonRpcAnswer")),
      jsonAnswer(404, "a JSON-RPC error: the session is gone (initialize again)", schemaRef("JsonRpcAnswer")),
      errorAnswer(413, "the message is too large"),
      errorAnswer(429, "rate_limited: too many sessions opened from this address (Retry-After)")};
  auto failures = callerFailures();
  doc.answers.insert(doc.answers.end(), failures.begin(), failures.end());
  doc.schemas = schemas();
  return doc;
}

RouteDoc getMcpDoc() {
  RouteDoc doc;
  doc.summary = "Refused: this server sends no server-initiated messages (use POST)";
  doc.tags = {"mcp"};
  doc.access = RouteAccess::Anyone;
  doc.answers = {errorAnswer(405, "method_not_allowed (Allow: POST, DELETE)"), errorAnswer(403, "origin_not_allowed")};
  return doc;
}

RouteDoc deleteMcpDoc() {
  RouteDoc doc;
  doc.summary = "Ends an MCP session";
  doc.tags = {"mcp"};
  doc.access = RouteAccess::Optional;
  doc.params = {sessionHeader(true)};
  doc.answers = {AnswerDoc{204, "ended", "", {}}, errorAnswer(400, "missing_session"),
                 errorAnswer(404, "Session not found (or another caller's)")};
  auto failures = callerFailures();
  doc.answers.insert(doc.answers.end(), failures.begin(), failures.end());
  return doc;
}

}  // namespace docs_mcp
