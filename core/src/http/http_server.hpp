#pragma once
// The HTTP front: POCO's threaded HTTP server, a dispatcher (request ids, CORS, limits,
// routing, JSON errors, access log, WebSocket upgrades, the SPA: the stages of
// http/stages.hpp) and a header deadline so clients that trickle their headers are cut off.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "docs/http.hpp"
#include "docs/logger.hpp"
#include "docs/websocket.hpp"
#include "http/browser_headers.hpp"
#include "http/connection_limits.hpp"
#include "http/router.hpp"
#include "http/static_files.hpp"
#include "metrics/metrics_access.hpp"

namespace Poco {
class ThreadPool;
namespace Net {
class TCPServer;
}
}  // namespace Poco

namespace docs::core {

class WebSocketHub;
class HeaderDeadlines;
class MetricsRegistry;
struct HttpMetrics;
struct ServerParts;
class ByteBudget;

struct WebSocketEndpoint {
  std::string path;
  WebSocketAcceptor acceptor;
  WebSocketOptions options;
  std::string owner;
};

struct HttpServerOptions {
  std::string host = "0.0.0.0";
  int port = 8080;
  int maxThreads = 256;
  int maxQueued = 1024;
  int headerTimeoutMs = 10000;
  int keepAliveTimeoutMs = 15000;
  int bodyTimeoutMs = 60000;
  int bodyGraceMs = 10000;                             // then bodies must arrive at bodyMinRate on average
  std::uint64_t bodyMinRate = 16384;                   // bytes per second; 0: no minimum
  std::size_t maxConnectionsPerAddress = 64;           // 0: no cap; trusted proxies are not counted
  std::size_t maxWebSocketsPerAddress = 256;           // open WebSockets per client address, counted the same way
  std::size_t anonymousBodyBytes = 65536;              // larger bodies need a caller (RouteOptions::anonymousBody)
  std::uint64_t anonymousBodyBudgetBytes = 32u << 20;  // all anonymous bodies' bytes held at once (503 past it)
  std::vector<std::string> allowedOrigins;             // exact origins allowed with credentials
  std::vector<std::string> trustedProxies;
  std::string webRoot;
  std::vector<std::string> apiPrefixes;  // besides /api/: unmatched paths below them are a JSON 404, not the SPA
  bool compression = true;               // Brotli/gzip by Accept-Encoding (precompressed files, answers >= 1 KiB)
  std::vector<std::string> metricsAllowedCidrs;  // besides loopback, who may read /metrics
  std::string metricsToken;                      // or a Bearer token; empty: none
  BrowserHeaderOptions browser;                  // CSP, HSTS and the other browser headers
};

// Built-in endpoints' answers, provided by the application.
struct ServerHooks {
  std::function<bool()> ready;                                           // /readyz
  std::function<Json(const Request&)> clientConfig;                      // /config.json
  std::function<std::optional<Principal>(const Request&)> authenticate;  // may be empty
  MetricsRegistry* metrics = nullptr;                                    // /metrics and the HTTP series; none when null
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, Router& router, std::vector<WebSocketEndpoint> endpoints, WebSocketHub& hub,
             ServerHooks hooks, std::shared_ptr<Logger> accessLog);
  ~HttpServer();

  void start();  // binds and listens; throws with a readable message
  void stop();   // stops accepting, waits for in-flight requests
  int port() const { return boundPort_; }

  // Public for the POCO glue.
  void dispatch(void* pocoRequest, void* pocoResponse);

 private:
  HttpServerOptions options_;
  Router& router_;
  std::map<std::string, WebSocketEndpoint> endpoints_;
  WebSocketHub& hub_;
  ServerHooks hooks_;
  std::shared_ptr<Logger> accessLog_;
  StaticFiles staticFiles_;
  BrowserHeaders browserHeaders_;
  MetricsAccess metricsAccess_;
  std::unique_ptr<HttpMetrics> httpMetrics_;
  std::unique_ptr<Poco::ThreadPool> threadPool_;
  std::unique_ptr<Poco::Net::TCPServer> server_;
  std::unique_ptr<HeaderDeadlines> deadlines_;
  std::unique_ptr<ConnectionsPerAddress> perAddress_;
  std::unique_ptr<ByteBudget> anonymousBodies_;
  // Shared with the connections, which release their slot when they close.
  std::shared_ptr<ConnectionsPerAddress> webSocketsPerAddress_;
  std::unique_ptr<ServerParts> parts_;  // what dispatch's stages use, from start() to stop()
  int boundPort_ = 0;
};

}  // namespace docs::core
