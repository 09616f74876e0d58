#include "json_rpc.hpp"

namespace docs_mcp {

using docs::Json;

namespace {

bool validId(const Json& id) { return id.is_string() || id.is_number_integer() || id.is_number_unsigned(); }

}  // namespace

MessageKind classify(const Json& message) {
  if (!message.is_object() || message.value("jsonrpc", Json()) != "2.0") return MessageKind::Invalid;
  bool hasId = message.contains("id");
  if (message.contains("method")) {
    if (!message["method"].is_string()) return MessageKind::Invalid;
    if (message.contains("params") && !message["params"].is_object() && !message["params"].is_array())
      return MessageKind::Invalid;
    if (!hasId) return MessageKind::Notification;
    return validId(message["id"]) ? MessageKind::Request : MessageKind::Invalid;
  }
  if (hasId && (message.contains("result") || message.contains("error"))) return MessageKind::Response;
  return MessageKind::Invalid;
}

Json idOf(const Json& message) {
  if (message.is_object() && message.contains("id") && validId(message["id"])) return message["id"];
  return nullptr;
}

Json resultMessage(const Json& id, Json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json errorMessage(const Json& id, int code, std::string_view message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

}  // namespace docs_mcp
