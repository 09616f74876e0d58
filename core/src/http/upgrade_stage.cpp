// The WebSocket upgrade: a GET of an endpoint's path asking for one. After the handshake
// the connection leaves POCO for the WebSocket hub's event loop.
#include <Poco/Net/NetException.h>
#include <Poco/Net/WebSocket.h>
#include <unistd.h>

#include <memory>

#include "http/stages.hpp"
#include "http/websocket_hub.hpp"
#include "metrics/core_metrics.hpp"
#include "sdk/url_codec.hpp"

namespace docs::core {
namespace {

bool containsToken(const std::string& header, std::string_view token) {
  std::size_t start = 0;
  while (start <= header.size()) {
    auto comma = header.find(',', start);
    std::string item = header.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto b = item.find_first_not_of(' ');
    auto e = item.find_last_not_of(' ');
    if (b != std::string::npos && equalsIgnoreCase(std::string_view(item).substr(b, e - b + 1), token)) return true;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return false;
}

bool wantsUpgrade(const Poco::Net::HTTPServerRequest& request) {
  return containsToken(request.get("Connection", ""), "upgrade") &&
         equalsIgnoreCase(request.get("Upgrade", ""), "websocket");
}

}  // namespace

Outcome upgradeWebSocket(const ServerParts& parts, Exchange& exchange) {
  auto endpoint = parts.endpoints.find(exchange.rawPath);
  if (endpoint == parts.endpoints.end() || !wantsUpgrade(exchange.request) || *exchange.method != Method::Get)
    return Outcome::Continue;
  const Request& request = exchange.handlerRequest.emplace(std::move(exchange.init));
  // Each open WebSocket holds a slot of its address until it closes (the cap of
  // HTTP connections no longer sees it once it leaves the worker pool).
  exchange.routeLabel = exchange.rawPath;
  auto slots = parts.webSocketsPerAddress;
  const std::string& remote = exchange.remote;
  if (!slots->tryAcquire(remote)) {
    exchange.out.setHeader("Retry-After", "5");
    throw HttpError(429, "too_many_websockets", "Too many WebSockets from your address");
  }
  Gauge* openSockets = parts.metrics ? &parts.metrics->webSockets : nullptr;
  if (openSockets) openSockets->add(1);
  auto release = [slots, remote, openSockets] {
    slots->release(remote);
    if (openSockets) openSockets->add(-1);
  };
  std::unique_ptr<Poco::Net::WebSocket> handshake;
  try {
    handshake = std::make_unique<Poco::Net::WebSocket>(exchange.request, exchange.response);
  } catch (const Poco::Net::WebSocketException& error) {
    release();
    throw HttpError::badRequest("WebSocket handshake failed: " + error.displayText(), "bad_handshake");
  } catch (...) {
    release();
    throw;
  }
  exchange.upgraded = true;
  // Our own descriptor for the event loop; POCO closes its copy when it lets go.
  int fd = ::dup(handshake->impl()->sockfd());
  handshake.reset();
  if (fd < 0) {
    release();
    return Outcome::Answered;
  }
  auto connection = parts.hub.adopt(fd, remote, endpoint->second.options, release);
  std::unique_ptr<WebSocketSession> session;
  std::string refusal;
  try {
    session = endpoint->second.acceptor(request, connection);
    if (!session) refusal = "refused";
  } catch (const HttpError& error) {
    refusal = error.what();
  } catch (const std::exception& error) {
    refusal = "internal error";
    if (parts.accessLog)
      parts.accessLog->error("websocket acceptor failed",
                             {{"request_id", exchange.requestId}, {"error", error.what()}});
  }
  parts.hub.attach(connection, std::move(session));
  if (!refusal.empty()) connection->close(1008, refusal);
  return Outcome::Answered;
}

}  // namespace docs::core
