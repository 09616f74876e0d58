// The stages of a request for a route: the match (or the static files), the cross-site
// guard, the body and the handler.
#include "http/cross_site_guard.hpp"
#include "http/header_deadlines.hpp"
#include "http/stages.hpp"

namespace docs::core {
namespace {

// Paths that are an API's (docsd's /api/ and the prefixes plugins declared): an unknown
// one is a JSON 404, never the SPA.
bool isApiPath(const std::string& rawPath, const std::vector<std::string>& apiPrefixes) {
  if (rawPath.rfind("/api/", 0) == 0 || rawPath == "/api") return true;
  for (const auto& prefix : apiPrefixes)
    if (rawPath.rfind(prefix, 0) == 0) return true;
  return false;
}

// A Content-Length (even 0) or a chunked body: bytes the connection may still hold.
bool declaresBody(const Poco::Net::HTTPServerRequest& request) {
  return request.hasContentLength() || request.getChunkedTransferEncoding();
}

bool lengthOver(const Poco::Net::HTTPServerRequest& request, std::size_t limit) {
  return request.hasContentLength() && static_cast<std::uint64_t>(request.getContentLength64()) > limit;
}

HttpError bodyTooLarge(const RouteOptions& options) {
  return HttpError::payloadTooLarge("Request body is larger than " + std::to_string(options.maxBodyBytes) + " bytes");
}

// A large body is read only for a caller we know (streaming handlers check first): at once
// when its length says so, or once a chunked one grows past the bound.
void requireCallerForLargeBody(const ServerParts& parts, Exchange& exchange) {
  const RouteOptions& options = exchange.match.route->options;
  if (exchange.callerChecked || options.streamBody || options.anonymousBody) return;
  exchange.callerChecked = true;
  Request probe{Request::Init(exchange.init)};
  std::optional<Principal> caller;
  try {
    caller = parts.hooks.authenticate ? parts.hooks.authenticate(probe) : std::nullopt;
  } catch (...) {
    exchange.closeAfter = true;
    throw;
  }
  if (!caller) {
    exchange.closeAfter = true;
    throw HttpError::unauthorized();
  }
}

// An anonymous body's bytes count against the server's budget for them; past it the
// connection closes with its body unread.
void holdBudget(Exchange& exchange, std::uint64_t total) {
  try {
    exchange.anonymousBytes.holdUpTo(total);
  } catch (const HttpError&) {
    exchange.closeAfter = true;
    exchange.out.setHeader("Retry-After", "5");
    throw;
  }
}

// A body for a handler that takes it whole: read at the minimum rate, within the limits.
void readWholeBody(const ServerParts& parts, Exchange& exchange, const BodyPace& pace) {
  const RouteOptions& options = exchange.match.route->options;
  std::string& body = exchange.init.body;
  std::istream& in = exchange.request.stream();
  char buffer[16384];
  while (in) {
    pace.beforeRead(body.size(), sizeof buffer);
    in.read(buffer, sizeof buffer);
    auto n = static_cast<std::size_t>(in.gcount());
    if (body.size() + n > options.maxBodyBytes) {
      exchange.closeAfter = true;
      throw bodyTooLarge(options);
    }
    holdBudget(exchange, body.size() + n);
    body.append(buffer, n);
    if (body.size() > parts.options.anonymousBodyBytes) requireCallerForLargeBody(parts, exchange);
  }
  parts.deadlines.disarm(exchange.socket.impl());
  exchange.bytesIn = body.size();
  if (exchange.request.hasContentLength() &&
      exchange.bytesIn < static_cast<std::uint64_t>(exchange.request.getContentLength64())) {
    exchange.closeAfter = true;
    throw HttpError(408, "body_timeout", "The request body did not arrive in time");
  }
}

}  // namespace

Outcome matchRoute(const ServerParts& parts, Exchange& exchange) {
  exchange.match = parts.router.match(*exchange.method, exchange.rawPath);
  switch (exchange.match.kind) {
    case RouteMatch::Kind::BadPath: throw HttpError::badRequest("Malformed path");
    case RouteMatch::Kind::MethodNotAllowed: {
      std::string allow;
      for (Method m : exchange.match.allowed) allow += (allow.empty() ? "" : ", ") + std::string(methodName(m));
      exchange.out.setHeader("Allow", allow);
      throw HttpError(405, "method_not_allowed", "Method " + exchange.methodText + " is not allowed here");
    }
    case RouteMatch::Kind::NotFound: {
      const auto& request = exchange.request;
      if (isApiPath(exchange.rawPath, parts.options.apiPrefixes) ||
          (*exchange.method != Method::Get && *exchange.method != Method::Head))
        throw HttpError::notFound("No route for " + exchange.methodText + " " + exchange.rawPath);
      StaticConditions conditions{parts.options.compression ? request.get("Accept-Encoding", "") : "",
                                  request.get("Range", ""), request.get("If-Range", ""),
                                  request.get("If-None-Match", "")};
      exchange.routeLabel = "static";
      parts.staticFiles.serve(exchange.rawPath, exchange.requestId, exchange.out, conditions);
      exchange.spaAnswer = true;
      return Outcome::Answered;
    }
    case RouteMatch::Kind::Found: break;
  }
  exchange.routeLabel = exchange.match.route->pathTemplate;
  return Outcome::Continue;
}

Outcome guardCrossSite(const ServerParts&, Exchange& exchange) {
  const auto& request = exchange.request;
  AmbientRequest ambient;
  ambient.method = *exchange.method;
  ambient.hasAuthorization = request.has("Authorization");
  ambient.origin = exchange.origin;
  ambient.originAllowed = exchange.originAllowed;
  ambient.secFetchSite = request.get("Sec-Fetch-Site", "");
  ambient.contentType = request.get("Content-Type", "");
  ambient.hasBody =
      request.getChunkedTransferEncoding() || (request.hasContentLength() && request.getContentLength64() > 0);
  ambient.uploadRoute = exchange.match.route->options.streamBody;
  try {
    refuseCrossSite(ambient);
  } catch (const HttpError&) {
    if (declaresBody(request)) exchange.closeAfter = true;  // the body stays unread
    throw;
  }
  return Outcome::Continue;
}

Outcome readBody(const ServerParts& parts, Exchange& exchange) {
  const RouteOptions& options = exchange.match.route->options;
  auto& request = exchange.request;
  if (lengthOver(request, options.maxBodyBytes)) {
    exchange.closeAfter = true;  // the unread body makes the connection unusable
    throw bodyTooLarge(options);
  }
  if (lengthOver(request, parts.options.anonymousBodyBytes)) requireCallerForLargeBody(parts, exchange);
  if (options.anonymousBody) {
    // A declared length is held whole at once: a body the budget cannot take is refused
    // before a byte of it is read.
    exchange.anonymousBytes.countAgainst(parts.anonymousBodies);
    if (request.hasContentLength()) holdBudget(exchange, static_cast<std::uint64_t>(request.getContentLength64()));
  }
  const BodyPace pace(parts.deadlines, exchange.socket,
                      BodyRate{std::chrono::milliseconds(parts.options.bodyGraceMs), parts.options.bodyMinRate});
  if (options.streamBody) {
    exchange.bodyReader.emplace(declaresBody(request) ? &request.stream() : nullptr, options.maxBodyBytes, pace,
                                options.anonymousBody ? &exchange.anonymousBytes : nullptr);
    exchange.init.bodyReader = &*exchange.bodyReader;
  } else if (declaresBody(request)) {
    readWholeBody(parts, exchange, pace);
  }
  return Outcome::Continue;
}

Outcome callHandler(const ServerParts& parts, Exchange& exchange) {
  const Route& route = *exchange.match.route;
  Request& request = exchange.handlerRequest.emplace(std::move(exchange.init));
  request.setPathParams(std::move(exchange.match.params));
  // A streamed body the handler did not read to its end leaves the connection unusable.
  auto settle = [&] {
    if (exchange.bodyReader && !exchange.bodyReader->finished()) exchange.closeAfter = true;
    parts.deadlines.disarm(exchange.socket.impl());
  };
  try {
    route.handler(request, exchange.out);
  } catch (...) {
    settle();
    throw;
  }
  settle();
  return Outcome::Answered;
}

}  // namespace docs::core
