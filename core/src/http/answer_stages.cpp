// What happens once the answer is decided: failures become JSON errors, the answer gets its
// headers and is sent (compressed when worth it), and the request is counted and logged.
#include <Poco/Exception.h>

#include <cmath>

#include "http/content_coding.hpp"
#include "http/header_deadlines.hpp"
#include "http/stages.hpp"
#include "metrics/core_metrics.hpp"
#include "sdk/url_codec.hpp"

namespace docs::core {
namespace {

using Clock = std::chrono::steady_clock;

// Route answers worth compressing on the fly: 1 KiB or more of a text-like type, not
// already encoded, not a partial answer (its Content-Range counts identity bytes).
bool compressibleAnswer(const Response& out) {
  constexpr std::size_t kMinBytes = 1024;
  if (out.body().size() < kMinBytes || out.status() == 206) return false;
  if (out.header("Content-Encoding") || out.header("Content-Range")) return false;
  auto type = out.header("Content-Type");
  return type && compressibleContentType(*type);
}

void recordMetrics(const ServerParts& parts, const Exchange& exchange, int status) {
  if (!parts.metrics) return;
  std::string methodLabel = exchange.method ? std::string(methodName(*exchange.method)) : "other";
  parts.metrics->requests.inc({exchange.routeLabel, methodLabel, std::to_string(status)});
  parts.metrics->duration.observe(std::chrono::duration<double>(Clock::now() - exchange.started).count(),
                                  {exchange.routeLabel, methodLabel});
}

}  // namespace

void answerFailure(const ServerParts& parts, Exchange& exchange) {
  try {
    throw;
  } catch (const HttpError& error) {
    exchange.out.json(errorBody(error.code(), error.what(), exchange.requestId), error.status());
  } catch (const Poco::Exception& error) {
    // I/O trouble while reading the request: the client went away or stalled.
    exchange.closeAfter = true;
    exchange.out.json(errorBody("bad_request", "The request could not be read", exchange.requestId), 400);
    if (parts.accessLog)
      parts.accessLog->warn("request read failed",
                            {{"request_id", exchange.requestId}, {"error", error.displayText()}});
  } catch (const std::exception& error) {
    exchange.out.json(errorBody("internal", "Internal server error", exchange.requestId), 500);
    if (parts.accessLog)
      parts.accessLog->error("handler failed",
                             {{"request_id", exchange.requestId}, {"path", exchange.rawPath}, {"error", error.what()}});
  }
}

Outcome addAnswerHeaders(const ServerParts& parts, Exchange& exchange) {
  Response& out = exchange.out;
  if (exchange.originAllowed) {
    out.setHeader("Access-Control-Allow-Origin", exchange.origin);
    out.setHeader("Access-Control-Allow-Credentials", "true");
    out.setHeader("Access-Control-Expose-Headers", "set-auth-jwt, Authorization, X-Request-Id");
    out.addHeader("Vary", "Origin");
  }
  out.setHeader("X-Request-Id", exchange.requestId);
  out.setHeader("X-Content-Type-Options", "nosniff");
  parts.browserHeaders.apply(out, exchange.spaAnswer, exchange.scheme, exchange.host);
  return Outcome::Continue;
}

Outcome writeHead(const ServerParts&, Exchange& exchange) {
  auto& response = exchange.response;
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(exchange.out.status()));
  for (const auto& [name, value] : exchange.out.headers()) {
    if (equalsIgnoreCase(name, "Content-Type")) response.setContentType(value);
    else response.add(name, value);
  }
  if (exchange.closeAfter) response.setKeepAlive(false);
  return Outcome::Continue;
}

Outcome sendFile(const ServerParts&, Exchange& exchange) {
  if (!exchange.out.filePath()) return Outcome::Continue;
  auto& response = exchange.response;
  // A copy: sendFile rewrites the header the reference would point into.
  const std::string contentType = response.getContentType();
  response.sendFile(*exchange.out.filePath(), contentType);
  exchange.bytesOut = static_cast<std::uint64_t>(response.getContentLength64());
  return Outcome::Answered;
}

Outcome sendEmpty(const ServerParts&, Exchange& exchange) {
  if (exchange.out.status() != 204 && exchange.out.status() != 304) return Outcome::Continue;
  exchange.response.setContentLength(0);
  exchange.response.send();
  return Outcome::Answered;
}

Outcome compressBody(const ServerParts& parts, Exchange& exchange) {
  const Response& out = exchange.out;
  if (!parts.options.compression || !compressibleAnswer(out)) return Outcome::Continue;
  exchange.response.add("Vary", "Accept-Encoding");
  Coding coding = chooseCoding(exchange.request.get("Accept-Encoding", ""), true, true);
  // A HEAD answer's length is the identity body's.
  if (coding != Coding::Identity && exchange.method != Method::Head) {
    exchange.encodedBody = coding == Coding::Brotli ? brotliEncode(out.body()) : gzipEncode(out.body());
    exchange.response.set("Content-Encoding", std::string(codingName(coding)));
  }
  return Outcome::Continue;
}

Outcome sendBody(const ServerParts&, Exchange& exchange) {
  const std::string& body = exchange.encodedBody ? *exchange.encodedBody : exchange.out.body();
  exchange.response.setContentLength64(static_cast<Poco::Int64>(body.size()));
  std::ostream& stream = exchange.response.send();
  if (exchange.method != Method::Head) stream.write(body.data(), static_cast<std::streamsize>(body.size()));
  exchange.bytesOut = body.size();
  return Outcome::Answered;
}

Outcome endUpgrade(const ServerParts& parts, Exchange& exchange) {
  if (!exchange.upgraded) return Outcome::Continue;
  recordMetrics(parts, exchange, 101);
  if (parts.accessLog)
    parts.accessLog->info(
        "websocket", {{"request_id", exchange.requestId}, {"path", exchange.rawPath}, {"remote", exchange.remote}});
  return Outcome::Answered;  // the event loop owns the socket now; no header deadline
}

Outcome sendAnswer(const ServerParts& parts, Exchange& exchange) {
  try {
    runStages(kSendStages, parts, exchange);
  } catch (const std::exception&) {
    exchange.closeAfter = true;  // the client went away mid-response
  }
  return Outcome::Continue;
}

Outcome recordRequest(const ServerParts& parts, Exchange& exchange) {
  recordMetrics(parts, exchange, exchange.out.status());
  if (parts.accessLog) {
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - exchange.started).count();
    parts.accessLog->info("request", {{"request_id", exchange.requestId},
                                      {"method", exchange.methodText},
                                      {"path", exchange.rawPath},
                                      {"status", exchange.out.status()},
                                      {"ms", std::round(ms * 100) / 100},
                                      {"bytes_in", exchange.bytesIn},
                                      {"bytes_out", exchange.bytesOut},
                                      {"remote", exchange.remote}});
  }
  return Outcome::Continue;
}

Outcome awaitNextRequest(const ServerParts& parts, Exchange& exchange) {
  if (!exchange.closeAfter)
    parts.deadlines.arm(exchange.socket,
                        std::chrono::milliseconds(parts.options.keepAliveTimeoutMs + parts.options.headerTimeoutMs));
  return Outcome::Continue;
}

}  // namespace docs::core
