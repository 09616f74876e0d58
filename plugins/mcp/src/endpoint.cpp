#include "endpoint.hpp"

#include <docs/context.hpp>

#include <strings.h>

#include <algorithm>

#include "json_rpc.hpp"

namespace docs_mcp {

using docs::HttpError;
using docs::Json;
using docs::Principal;
using docs::Registry;
using docs::Request;
using docs::Response;

namespace {

bool supported(const std::string& version) {
  return version == kLatestProtocol || version == "2025-06-18" || version == kBatchingProtocol;
}

void rpcAnswer(Response& response, const Json& body, int status = 200) {
  response.setHeader("Cache-Control", "no-store");
  response.json(body, status);
}

}  // namespace

Endpoint::Endpoint(Registry& registry, const EndpointSettings& settings)
    : settings_(settings),
      sessions_(registry.context().db(), settings.sessionIdle),
      tools_(registry, settings.tools),
      opened_(settings.sessionsPerMinutePerAddress) {
  registry.require(authenticator_);
}

std::optional<Principal> Endpoint::caller(const Request& request) {
  auto authorization = request.header("Authorization");
  if (!authorization) return std::nullopt;  // cookies are not read: a browser page cannot act as its user here
  std::string_view value = *authorization;
  std::optional<Principal> principal;
  if (value.size() > 7 && strncasecmp(value.data(), "Bearer ", 7) == 0)
    principal = authenticator_->authenticateToken(value.substr(7));
  if (!principal)
    throw HttpError(401, "invalid_token", "Not Authorized: send a valid access token or JWT as Bearer, or none");
  return principal;
}

void Endpoint::refuseForeignOrigin(const Request& request) const {
  auto origin = request.header("Origin");
  if (!origin) return;  // not a browser: agents and their SDKs send none
  const auto& allowed = settings_.allowedOrigins;
  if (std::find(allowed.begin(), allowed.end(), *origin) == allowed.end())
    throw HttpError(403, "origin_not_allowed", "Forbidden: this origin may not call the MCP server");
}

bool Endpoint::allowNewSession(const std::string& address) {
  auto minute =
      std::chrono::duration_cast<std::chrono::minutes>(std::chrono::steady_clock::now().time_since_epoch()).count();
  std::lock_guard lock(openedMutex_);
  return opened_.allow(address, minute);
}

std::optional<McpSession> Endpoint::requireSession(const Request& request, const std::optional<Principal>& principal,
                                                   Response& response) {
  auto id = request.header("Mcp-Session-Id");
  if (!id || id->empty()) {
    rpcAnswer(response, errorMessage(nullptr, kInvalidRequest, "Bad Request: no Mcp-Session-Id; call initialize first"),
              400);
    return std::nullopt;
  }
  auto session = sessions_.find(*id, principal ? principal->userId : "");
  if (!session) {
    rpcAnswer(response, errorMessage(nullptr, kSessionNotFound, "Session not found: initialize a new one"), 404);
    return std::nullopt;
  }
  if (auto version = request.header("MCP-Protocol-Version"); version && !supported(*version)) {
    rpcAnswer(response,
              errorMessage(nullptr, kInvalidRequest, "Bad Request: unsupported MCP-Protocol-Version " + *version), 400);
    return std::nullopt;
  }
  return session;
}

Json Endpoint::initialize(const Json& message, const std::optional<Principal>& principal, const Request& request,
                          Response& response) {
  Json id = idOf(message);
  const Json params = message.value("params", Json::object());
  if (!params.is_object() || !params.contains("protocolVersion") || !params["protocolVersion"].is_string())
    return errorMessage(id, kInvalidParams, "initialize needs params.protocolVersion");
  std::string asked = params["protocolVersion"];
  std::string version = supported(asked) ? asked : kLatestProtocol;
  if (!allowNewSession(request.remoteAddress())) {
    response.setHeader("Retry-After", "60");
    throw HttpError(429, "rate_limited", "Too many MCP sessions opened from this address; try again in a minute");
  }
  std::string client;
  if (params.contains("clientInfo") && params["clientInfo"].is_object() && params["clientInfo"].contains("name") &&
      params["clientInfo"]["name"].is_string())
    client = params["clientInfo"]["name"];
  auto session = sessions_.open(principal ? principal->userId : "", version, client);
  response.setHeader("Mcp-Session-Id", session.id);
  Json result = {
      {"protocolVersion", version},
      {"capabilities", {{"tools", {{"listChanged", false}}}}},
      {"serverInfo", {{"name", "docsd"}, {"title", "docs"}, {"version", "1.0.0"}}},
      {"instructions",
       "Documentation of code projects. list_projects names the projects you can read; read_wiki_structure "
       "and read_wiki_contents read a project's pages; ask_question and search look through its code and docs."}};
  return resultMessage(id, result);
}

Json Endpoint::handle(const Json& message, const ToolCaller& toolCaller) {
  auto kind = classify(message);
  if (kind == MessageKind::Invalid) return errorMessage(idOf(message), kInvalidRequest, "Invalid JSON-RPC 2.0 message");
  if (kind != MessageKind::Request) return nullptr;  // notifications (initialized, cancelled) and client responses
  const Json& id = message["id"];
  const std::string& method = message["method"].get_ref<const std::string&>();
  const Json params = message.value("params", Json::object());
  try {
    if (method == "ping") return resultMessage(id, Json::object());
    if (method == "tools/list") return resultMessage(id, {{"tools", tools_.list()}});
    if (method == "tools/call") {
      if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
        throw RpcError(kInvalidParams, "tools/call needs params.name");
      Json arguments = params.value("arguments", Json::object());
      if (arguments.is_null()) arguments = Json::object();
      return resultMessage(id, tools_.call(params["name"], arguments, toolCaller));
    }
    if (method == "initialize") return errorMessage(id, kInvalidRequest, "The session is already initialized");
    return errorMessage(id, kMethodNotFound, "Method not found: " + method);
  } catch (const RpcError& error) {
    return errorMessage(id, error.code(), error.what());
  } catch (const HttpError& error) {
    return errorMessage(id, kInternalError, error.what());
  }
}

void Endpoint::post(Request& request, Response& response) {
  refuseForeignOrigin(request);
  auto principal = caller(request);
  Json body = Json::parse(request.body(), nullptr, false);
  if (body.is_discarded()) {
    rpcAnswer(response, errorMessage(nullptr, kParseError, "Parse error: the body is not JSON"), 400);
    return;
  }
  // initialize opens a session and stands alone.
  if (body.is_object() && classify(body) == MessageKind::Request && body["method"] == "initialize") {
    rpcAnswer(response, initialize(body, principal, request, response));
    return;
  }
  if (!body.is_object() && !body.is_array()) {
    rpcAnswer(response, errorMessage(nullptr, kInvalidRequest, "Invalid Request: expected a JSON-RPC message"), 400);
    return;
  }
  auto found = requireSession(request, principal, response);
  if (!found) return;  // answered
  const McpSession& session = *found;
  ToolCaller toolCaller{principal, request.remoteAddress(), session.protocolVersion >= kArgumentErrorsAsResults};
  if (body.is_array()) {
    // Batches exist in 2025-03-26 only; never empty, never with initialize.
    if (session.protocolVersion != kBatchingProtocol || body.empty()) {
      rpcAnswer(
          response,
          errorMessage(nullptr, kInvalidRequest, "Invalid Request: batches are not supported in this protocol version"),
          400);
      return;
    }
    if (body.size() > 50) {
      rpcAnswer(response, errorMessage(nullptr, kInvalidRequest, "Invalid Request: at most 50 messages in a batch"),
                400);
      return;
    }
    Json answers = Json::array();
    for (const auto& message : body) {
      if (classify(message) == MessageKind::Request && message["method"] == "initialize") {
        answers.push_back(errorMessage(idOf(message), kInvalidRequest, "initialize cannot be part of a batch"));
        continue;
      }
      Json answer = handle(message, toolCaller);
      if (!answer.is_null()) answers.push_back(std::move(answer));
    }
    if (answers.empty()) response.setStatus(202);
    else rpcAnswer(response, answers);
    return;
  }
  Json answer = handle(body, toolCaller);
  if (answer.is_null()) {
    response.setStatus(202);  // a notification or a response: accepted, nothing to say
    return;
  }
  rpcAnswer(response, answer, classify(body) == MessageKind::Invalid ? 400 : 200);
}

void Endpoint::get(Request& request, Response& response) {
  refuseForeignOrigin(request);
  // The transport lets a server without server-initiated messages refuse the stream.
  response.setHeader("Allow", "POST, DELETE");
  throw HttpError(405, "method_not_allowed", "This MCP server sends no server-initiated messages: use POST");
}

void Endpoint::remove(Request& request, Response& response) {
  refuseForeignOrigin(request);
  auto principal = caller(request);
  auto id = request.header("Mcp-Session-Id");
  if (!id || id->empty()) throw HttpError::badRequest("Mcp-Session-Id is required", "missing_session");
  if (!sessions_.close(*id, principal ? principal->userId : "")) throw HttpError::notFound("Session not found");
  response.noContent();
}

}  // namespace docs_mcp
