#pragma once
// /mcp: MCP's Streamable HTTP transport over JSON-RPC 2.0. POST carries messages (one, or
// a batch under 2025-03-26) and is answered with JSON; GET is 405 (no server-initiated
// stream); DELETE ends the session. A browser page of another origin is refused (403).

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <docs/http.hpp>
#include <docs/registry.hpp>
#include <docs/services/authenticator.hpp>

#include "session_openings.hpp"
#include "sessions.hpp"
#include "tools.hpp"

namespace docs_mcp {

inline constexpr const char* kLatestProtocol = "2025-11-25";
inline constexpr const char* kBatchingProtocol = "2025-03-26";
// Versions before this one answer invalid tool arguments with JSON-RPC -32602; from it on
// they are a tool result with isError, which the model reads and corrects.
inline constexpr const char* kArgumentErrorsAsResults = "2025-11-25";

struct EndpointSettings {
  ToolSettings tools;
  std::chrono::minutes sessionIdle{60 * 24};
  int sessionsPerMinutePerAddress = 60;
  // Origins a browser may call from (server.public_url's and server.allowed_origins); a
  // request with any other Origin header is refused, against DNS rebinding.
  std::vector<std::string> allowedOrigins;
};

class Endpoint {
 public:
  // Built in configure(): declares the services it needs (the Authenticator, and the
  // tools'); no I/O until a request comes.
  Endpoint(docs::Registry& registry, const EndpointSettings& settings);
  void post(docs::Request& request, docs::Response& response);
  void get(docs::Request& request, docs::Response& response);
  void remove(docs::Request& request, docs::Response& response);
  Sessions& sessions() { return sessions_; }
  Tools& tools() { return tools_; }

 private:
  // The bearer's principal (PAT or JWT), nullopt when none is sent; a bad one is a 401.
  std::optional<docs::Principal> caller(const docs::Request& request);
  // 403 for a request whose Origin header names another site.
  void refuseForeignOrigin(const docs::Request& request) const;
  // The session a request names; otherwise answers (400 without one, 404 when ended or
  // another caller's, 400 for another protocol version) and returns nullopt.
  std::optional<McpSession> requireSession(const docs::Request& request,
                                           const std::optional<docs::Principal>& principal, docs::Response& response);
  docs::Json initialize(const docs::Json& message, const std::optional<docs::Principal>& principal,
                        const docs::Request& request, docs::Response& response);
  // One request's response, or null for a notification or a client's response.
  docs::Json handle(const docs::Json& message, const ToolCaller& toolCaller);
  bool allowNewSession(const std::string& address);

  docs::ServiceRef<docs::Authenticator> authenticator_;  // required: mcp depends on auth
  EndpointSettings settings_;
  Sessions sessions_;
  Tools tools_;
  std::mutex openedMutex_;
  SessionOpenings opened_;  // under openedMutex_
};

}  // namespace docs_mcp
