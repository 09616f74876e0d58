#pragma once
// HttpServer::dispatch as an ordered list of stages over one Exchange. Each stage either
// lets the next one run or has finished the answer. The order decides security answers
// (a preflight before any route, the cross-site guard before the body limits, the body
// limits before a byte of the body is read), so change it only with
// tests/integration/server_test.cpp's TheOrderOfTheChecksDecidesEachAnswer.

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "docs/logger.hpp"
#include "http/exchange.hpp"
#include "http/http_server.hpp"

namespace docs::core {

// What the stages use of the server, shared by every request.
struct ServerParts {
  const HttpServerOptions& options;
  const Router& router;
  const std::map<std::string, WebSocketEndpoint>& endpoints;
  WebSocketHub& hub;
  const ServerHooks& hooks;
  Logger* accessLog;  // null: none
  const StaticFiles& staticFiles;
  const BrowserHeaders& browserHeaders;
  const MetricsAccess& metricsAccess;
  HttpMetrics* metrics;  // null: none
  HeaderDeadlines& deadlines;
  ByteBudget& anonymousBodies;  // bodies of RouteOptions::anonymousBody routes
  // Shared with the WebSocket connections, which release their slot when they close.
  const std::shared_ptr<ConnectionsPerAddress>& webSocketsPerAddress;
};

enum class Outcome { Continue, Answered };
using Stage = Outcome (*)(const ServerParts&, Exchange&);

// Runs stages in order until one has answered.
template <std::size_t N>
void runStages(const std::array<Stage, N>& stages, const ServerParts& parts, Exchange& exchange) {
  for (Stage stage : stages)
    if (stage(parts, exchange) == Outcome::Answered) return;
}

// Reading the request (request_stages.cpp). These never answer, they read.
Outcome readTarget(const ServerParts&, Exchange&);   // path, query and method
Outcome findClient(const ServerParts&, Exchange&);   // address and scheme, through a trusted proxy
Outcome checkOrigin(const ServerParts&, Exchange&);  // CORS: is the Origin ours or allowed
// Answering it (request_stages.cpp, upgrade_stage.cpp, route_stages.cpp).
Outcome refuseBadTarget(const ServerParts&, Exchange&);   // 400 for a target that is no path, 405 an unknown method
Outcome collectRequest(const ServerParts&, Exchange&);    // what the handler will see
Outcome answerPreflight(const ServerParts&, Exchange&);   // CORS preflights, from allowed origins only
Outcome answerBuiltIn(const ServerParts&, Exchange&);     // /healthz, /readyz, /metrics, /config.json
Outcome upgradeWebSocket(const ServerParts&, Exchange&);  // hands the connection to the WebSocket hub
Outcome matchRoute(const ServerParts&, Exchange&);        // 400, 405 with Allow, 404 or the static files
Outcome guardCrossSite(const ServerParts&, Exchange&);    // 403/415 for what another site makes a browser send
Outcome readBody(const ServerParts&, Exchange&);          // the route's limits, the caller of a large body
Outcome callHandler(const ServerParts&, Exchange&);

inline constexpr std::array<Stage, 12> kAnswerStages = {
    readTarget,    findClient,       checkOrigin, refuseBadTarget, collectRequest, answerPreflight,
    answerBuiltIn, upgradeWebSocket, matchRoute,  guardCrossSite,  readBody,       callHandler};

// In the handler of what kAnswerStages threw: the answer for the exception in flight.
// What is not a std::exception is thrown on.
void answerFailure(const ServerParts&, Exchange&);

// Sending the answer (answer_stages.cpp).
Outcome addAnswerHeaders(const ServerParts&, Exchange&);  // CORS, request id, browser headers
Outcome writeHead(const ServerParts&, Exchange&);         // status, headers, keep-alive
Outcome sendFile(const ServerParts&, Exchange&);
Outcome sendEmpty(const ServerParts&, Exchange&);     // 204 and 304
Outcome compressBody(const ServerParts&, Exchange&);  // by Accept-Encoding
Outcome sendBody(const ServerParts&, Exchange&);

inline constexpr std::array<Stage, 6> kSendStages = {addAnswerHeaders, writeHead,    sendFile,
                                                     sendEmpty,        compressBody, sendBody};

// After the answer (answer_stages.cpp).
Outcome endUpgrade(const ServerParts&, Exchange&);        // counts and logs a WebSocket, then stops
Outcome sendAnswer(const ServerParts&, Exchange&);        // kSendStages; a client gone mid-answer closes
Outcome recordRequest(const ServerParts&, Exchange&);     // metrics and the access log
Outcome awaitNextRequest(const ServerParts&, Exchange&);  // the kept-alive connection's deadline

inline constexpr std::array<Stage, 4> kFinishStages = {endUpgrade, sendAnswer, recordRequest, awaitNextRequest};

}  // namespace docs::core
