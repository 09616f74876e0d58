#pragma once
// JSON-RPC 2.0 messages as MCP uses them: what a message is, and the answers.

#include <stdexcept>
#include <string>
#include <string_view>

#include <docs/http.hpp>

namespace docs_mcp {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kSessionNotFound = -32001;  // what the MCP SDKs answer for an ended session

// Thrown while handling a request: it is answered with this JSON-RPC error.
class RpcError : public std::runtime_error {
 public:
  RpcError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

enum class MessageKind { Request, Notification, Response, Invalid };

// A request has a method and an id (string or integer); a notification a method and no
// id; a response a result or an error and an id. Anything else is invalid.
MessageKind classify(const docs::Json& message);
// The message's id when it has a valid one, else null.
docs::Json idOf(const docs::Json& message);

docs::Json resultMessage(const docs::Json& id, docs::Json result);
docs::Json errorMessage(const docs::Json& id, int code, std::string_view message);

}  // namespace docs_mcp
