// The stages that read a request, and those that answer before any route: a target that
// is no path, an unknown method, CORS preflights and the built-in paths.
#include <algorithm>

#include "http/browser_headers.hpp"
#include "http/stages.hpp"
#include "metrics/metrics_registry.hpp"

namespace docs::core {

Outcome readTarget(const ServerParts&, Exchange& exchange) {
  const std::string uri = exchange.request.getURI();
  auto question = uri.find('?');
  exchange.rawPath = uri.substr(0, question);
  exchange.rawQuery = question == std::string::npos ? "" : uri.substr(question + 1);
  exchange.methodText = exchange.request.getMethod();
  exchange.method = parseMethod(exchange.methodText);
  return Outcome::Continue;
}

Outcome findClient(const ServerParts& parts, Exchange& exchange) {
  const auto& request = exchange.request;
  exchange.remote = request.clientAddress().host().toString();
  // Through a trusted proxy that named no client, the client is unknown: /metrics must not
  // take the proxy's (loopback) address for it.
  const auto& proxies = parts.options.trustedProxies;
  if (std::find(proxies.begin(), proxies.end(), exchange.remote) != proxies.end()) {
    std::string forwarded = request.get("X-Forwarded-For", "");
    exchange.clientUnknown = forwarded.find_first_not_of(" ,") == std::string::npos;
    if (!forwarded.empty()) {
      auto comma = forwarded.rfind(',');
      std::string last = comma == std::string::npos ? forwarded : forwarded.substr(comma + 1);
      auto b = last.find_first_not_of(' ');
      if (b != std::string::npos) exchange.remote = last.substr(b);
    }
    std::string proto = request.get("X-Forwarded-Proto", "");
    if (proto == "https" || proto == "http") exchange.scheme = proto;
  } else if (request.has("X-Forwarded-For") || request.has("Forwarded") || request.has("X-Real-IP")) {
    // A proxy nobody declared (on loopback, say) forwarded someone else's request: the
    // peer is not the client, and who is stays unknown (never loopback for /metrics).
    exchange.clientUnknown = true;
  }
  exchange.host = request.getHost();
  return Outcome::Continue;
}

Outcome checkOrigin(const ServerParts& parts, Exchange& exchange) {
  exchange.origin = exchange.request.get("Origin", "");
  if (!exchange.origin.empty()) {
    const auto& allowed = parts.options.allowedOrigins;
    exchange.originAllowed = std::find(allowed.begin(), allowed.end(), exchange.origin) != allowed.end() ||
                             exchange.origin == exchange.scheme + "://" + exchange.host;
  }
  return Outcome::Continue;
}

Outcome refuseBadTarget(const ServerParts&, Exchange& exchange) {
  if (exchange.rawPath.empty() || exchange.rawPath.front() != '/')
    throw HttpError::badRequest("Malformed request target");
  if (!exchange.method)
    throw HttpError(405, "method_not_allowed", "Method " + exchange.methodText + " is not supported");
  return Outcome::Continue;
}

Outcome collectRequest(const ServerParts& parts, Exchange& exchange) {
  Request::Init& init = exchange.init;
  init.method = *exchange.method;
  init.path = exchange.rawPath;
  init.rawQuery = exchange.rawQuery;
  init.host = exchange.host;
  init.scheme = exchange.scheme;
  init.publicOrigin = publicOriginOf(parts.options.browser.publicUrl, exchange.scheme, exchange.host);
  init.remoteAddress = exchange.remote;
  init.requestId = exchange.requestId;
  for (const auto& [name, value] : exchange.request) init.headers.emplace_back(name, value);
  // The caller of the request the handler sees, once it is made (two references: no
  // allocation for the std::function).
  init.resolvePrincipal = [&hooks = parts.hooks, &exchange]() -> std::optional<Principal> {
    if (!hooks.authenticate || !exchange.handlerRequest) return std::nullopt;
    return hooks.authenticate(*exchange.handlerRequest);
  };
  return Outcome::Continue;
}

Outcome answerPreflight(const ServerParts&, Exchange& exchange) {
  const auto& request = exchange.request;
  if (*exchange.method != Method::Options || exchange.origin.empty() || !request.has("Access-Control-Request-Method"))
    return Outcome::Continue;
  exchange.routeLabel = "preflight";
  if (!exchange.originAllowed) throw HttpError::forbidden("Origin " + exchange.origin + " is not allowed");
  Response& out = exchange.out;
  out.noContent();
  out.setHeader("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
  std::string requested = request.get("Access-Control-Request-Headers", "");
  out.setHeader("Access-Control-Allow-Headers",
                requested.empty() ? "Authorization, Content-Type, Mode, filename, X-Request-Id" : requested);
  out.setHeader("Access-Control-Max-Age", "600");
  return Outcome::Answered;
}

Outcome answerBuiltIn(const ServerParts& parts, Exchange& exchange) {
  const std::string& path = exchange.rawPath;
  const bool reading = *exchange.method == Method::Get || *exchange.method == Method::Head;
  Response& out = exchange.out;
  if (path == "/healthz") {
    exchange.routeLabel = path;
    out.json({{"status", "ok"}});
  } else if (path == "/readyz") {
    exchange.routeLabel = path;
    bool ready = parts.hooks.ready && parts.hooks.ready();
    out.json({{"status", ready ? "ready" : "starting"}}, ready ? 200 : 503);
  } else if (path == "/metrics" && reading) {
    exchange.routeLabel = path;
    // Not there at all for a caller who may not read it.
    if (!parts.hooks.metrics || !parts.metricsAccess.allows(exchange.clientUnknown ? "" : exchange.remote,
                                                            exchange.request.get("Authorization", "")))
      throw HttpError::notFound("No route for " + exchange.methodText + " " + path);
    out.text(parts.hooks.metrics->render(), "text/plain; version=0.0.4; charset=utf-8");
    out.setHeader("Cache-Control", "no-store");
  } else if (path == "/config.json" && reading) {
    exchange.routeLabel = path;
    const Request& request = exchange.handlerRequest.emplace(std::move(exchange.init));
    out.json(parts.hooks.clientConfig ? parts.hooks.clientConfig(request) : Json::object());
    out.setHeader("Cache-Control", "no-cache");
  } else {
    return Outcome::Continue;
  }
  return Outcome::Answered;
}

}  // namespace docs::core
