#include "http/http_server.hpp"

#include "http/cross_site_guard.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerConnection.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/Net/TCPServerConnectionFactory.h>
#include <Poco/Net/TCPServerParams.h>
#include <Poco/Net/WebSocket.h>
#include <Poco/ThreadPool.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fcntl.h>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <random>
#include <thread>
#include <unordered_map>

#include <docs/codec/codec.hpp>

#include "http/content_coding.hpp"
#include "metrics/core_metrics.hpp"
#include "http/websocket_hub.hpp"
#include "sdk/url_codec.hpp"

namespace docs::core {

using Clock = std::chrono::steady_clock;
using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;

// Cuts off connections that have not finished sending a request's headers in time.
// Entries hold a socket reference, so a descriptor is never reused while watched.
class HeaderDeadlines {
 public:
  HeaderDeadlines() : thread_([this] { loop(); }) {}
  ~HeaderDeadlines() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      wake_.notify_all();
    }
    thread_.join();
  }
  void arm(const Poco::Net::StreamSocket& socket, std::chrono::milliseconds timeout) {
    std::lock_guard lock(mutex_);
    auto& entry = entries_[socket.impl()];
    entry.socket = socket;
    entry.deadline = Clock::now() + timeout;
    entry.armed = true;
  }
  void disarm(Poco::Net::SocketImpl* key) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) it->second.armed = false;
  }
  void remove(Poco::Net::SocketImpl* key) {
    std::lock_guard lock(mutex_);
    entries_.erase(key);
  }

 private:
  struct Entry {
    Poco::Net::StreamSocket socket;
    Clock::time_point deadline;
    bool armed = false;
  };
  void loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(200));
      auto now = Clock::now();
      for (auto& [key, entry] : entries_) {
        if (!entry.armed || now < entry.deadline) continue;
        entry.armed = false;
        try {
          entry.socket.shutdown();  // the blocked read returns; POCO closes the connection
        } catch (...) {
        }
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::unordered_map<Poco::Net::SocketImpl*, Entry> entries_;
  std::thread thread_;
};

namespace {

class DispatchHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit DispatchHandler(HttpServer& server) : server_(server) {}
  void handleRequest(HTTPServerRequest& request, HTTPServerResponse& response) override {
    server_.dispatch(&request, &response);
  }

 private:
  HttpServer& server_;
};

class DispatchFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit DispatchFactory(HttpServer& server) : server_(server) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const HTTPServerRequest&) override {
    return new DispatchHandler(server_);
  }

 private:
  HttpServer& server_;
};

std::string peerHost(const Poco::Net::StreamSocket& socket) {
  try {
    return socket.peerAddress().host().toString();
  } catch (const Poco::Exception&) {
    return "";
  }
}

// An HTTP connection whose header deadline starts when it is accepted, counted against
// its address while it lives.
class TimedConnection final : public Poco::Net::HTTPServerConnection {
 public:
  TimedConnection(const Poco::Net::StreamSocket& socket, Poco::Net::HTTPServerParams::Ptr params,
                  Poco::Net::HTTPRequestHandlerFactory::Ptr factory, HeaderDeadlines& deadlines,
                  ConnectionsPerAddress& perAddress, std::string address)
      : HTTPServerConnection(socket, params, factory), deadlines_(deadlines), perAddress_(perAddress),
        address_(std::move(address)), key_(socket.impl()) {}
  void run() override {
    try {
      HTTPServerConnection::run();
    } catch (...) {
    }
    deadlines_.remove(key_);
    perAddress_.release(address_);
  }

 private:
  HeaderDeadlines& deadlines_;
  ConnectionsPerAddress& perAddress_;
  std::string address_;
  Poco::Net::SocketImpl* key_;
};

// One address already holds its share of the workers: a short answer, then close.
class RefusedConnection final : public Poco::Net::TCPServerConnection {
 public:
  explicit RefusedConnection(const Poco::Net::StreamSocket& socket) : TCPServerConnection(socket) {}
  void run() override {
    static const std::string body =
        R"({"error":{"code":"too_many_connections","message":"Too many connections from your address","request_id":""}})";
    std::string reply = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n"
                        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    try {
      socket().setSendTimeout(Poco::Timespan(1, 0));
      socket().sendBytes(reply.data(), static_cast<int>(reply.size()));
      socket().shutdownSend();
    } catch (...) {
    }
  }
};

class TimedConnectionFactory final : public Poco::Net::TCPServerConnectionFactory {
 public:
  TimedConnectionFactory(Poco::Net::HTTPServerParams::Ptr params, Poco::Net::HTTPRequestHandlerFactory::Ptr factory,
                         HeaderDeadlines& deadlines, ConnectionsPerAddress& perAddress, std::chrono::milliseconds headerTimeout)
      : params_(params), factory_(factory), deadlines_(deadlines), perAddress_(perAddress), headerTimeout_(headerTimeout) {}
  Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& socket) override {
    std::string address = peerHost(socket);
    if (!perAddress_.tryAcquire(address)) return new RefusedConnection(socket);
    deadlines_.arm(socket, headerTimeout_);
    return new TimedConnection(socket, params_, factory_, deadlines_, perAddress_, std::move(address));
  }

 private:
  Poco::Net::HTTPServerParams::Ptr params_;
  Poco::Net::HTTPRequestHandlerFactory::Ptr factory_;
  HeaderDeadlines& deadlines_;
  ConnectionsPerAddress& perAddress_;
  std::chrono::milliseconds headerTimeout_;
};

std::string newRequestId() {
  // Not a secret, so a cheap generator: 64 bits as 16 hex digits.
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::uint64_t value = random();
  return codec::hexEncode(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
}

std::string acceptRequestId(const std::string& incoming) {
  if (incoming.empty() || incoming.size() > 64) return newRequestId();
  for (char c : incoming)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return newRequestId();
  return incoming;
}

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

// Reads a request body piecewise, refusing bytes past the limit.
class LimitedBodyReader final : public BodyReader {
 public:
  // beforeRead(received so far, size wanted) arms the body's deadline.
  LimitedBodyReader(std::istream* in, std::size_t limit, std::function<void(std::uint64_t, std::size_t)> beforeRead)
      : in_(in), limit_(limit), beforeRead_(std::move(beforeRead)) {}
  std::size_t read(char* buffer, std::size_t size) override {
    if (!in_ || finished_) return 0;
    if (beforeRead_) beforeRead_(total_, size);
    in_->read(buffer, static_cast<std::streamsize>(size));
    auto n = static_cast<std::size_t>(in_->gcount());
    if (n == 0) {
      if (in_->bad()) throw HttpError(400, "body_incomplete", "The request body ended early");
      finished_ = true;
    }
    total_ += n;
    if (total_ > limit_) throw HttpError::payloadTooLarge();
    return n;
  }
  bool finished() const { return finished_ || !in_; }

 private:
  std::istream* in_;
  std::size_t limit_;
  std::function<void(std::uint64_t, std::size_t)> beforeRead_;
  std::size_t total_ = 0;
  bool finished_ = false;
};

// Counts a request in docsd_http_requests_in_flight while it is being answered.
class InFlight {
 public:
  explicit InFlight(Gauge* gauge) : gauge_(gauge) {
    if (gauge_) gauge_->add(1);
  }
  ~InFlight() {
    if (gauge_) gauge_->add(-1);
  }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  Gauge* gauge_;
};

// Route answers worth compressing on the fly: 1 KiB or more of a text-like type, not
// already encoded, not a partial answer (its Content-Range counts identity bytes).
bool compressibleAnswer(const Response& out) {
  constexpr std::size_t kMinBytes = 1024;
  if (out.body().size() < kMinBytes || out.status() == 206) return false;
  if (out.header("Content-Encoding") || out.header("Content-Range")) return false;
  auto type = out.header("Content-Type");
  return type && compressibleContentType(*type);
}

}  // namespace

HttpServer::HttpServer(HttpServerOptions options, Router& router, std::vector<WebSocketEndpoint> endpoints,
                       WebSocketHub& hub, ServerHooks hooks, std::shared_ptr<Logger> accessLog)
    : options_(std::move(options)), router_(router), hub_(hub), hooks_(std::move(hooks)),
      accessLog_(std::move(accessLog)), staticFiles_(options_.webRoot), browserHeaders_(options_.browser),
      metricsAccess_(options_.metricsAllowedCidrs, options_.metricsToken) {
  if (hooks_.metrics) httpMetrics_ = std::make_unique<HttpMetrics>(*hooks_.metrics);
  for (auto& endpoint : endpoints) {
    std::string path = endpoint.path;
    endpoints_.emplace(std::move(path), std::move(endpoint));
  }
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start() {
  Poco::Net::ServerSocket socket;
  try {
    socket.bind(Poco::Net::SocketAddress(options_.host, static_cast<Poco::UInt16>(options_.port)), true);
    socket.listen(1024);
  } catch (const Poco::Exception& error) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" + std::to_string(options_.port) + ": " +
                             error.displayText());
  }
  ::fcntl(socket.impl()->sockfd(), F_SETFD, FD_CLOEXEC);
  boundPort_ = socket.address().port();

  auto params = Poco::Net::HTTPServerParams::Ptr(new Poco::Net::HTTPServerParams);
  params->setMaxThreads(options_.maxThreads);
  params->setMaxQueued(options_.maxQueued);
  params->setTimeout(Poco::Timespan(static_cast<long>(options_.bodyTimeoutMs) * 1000));
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(static_cast<long>(options_.keepAliveTimeoutMs) * 1000));
  params->setMaxKeepAliveRequests(0);  // unlimited
  params->setServerName("docsd");
  params->setSoftwareVersion("docsd");

  deadlines_ = std::make_unique<HeaderDeadlines>();
  perAddress_ = std::make_unique<ConnectionsPerAddress>(options_.maxConnectionsPerAddress, options_.trustedProxies);
  webSocketsPerAddress_ = std::make_shared<ConnectionsPerAddress>(options_.maxWebSocketsPerAddress, options_.trustedProxies);
  threadPool_ = std::make_unique<Poco::ThreadPool>(4, options_.maxThreads, 60);
  Poco::Net::HTTPRequestHandlerFactory::Ptr factory(new DispatchFactory(*this));
  Poco::Net::TCPServerConnectionFactory::Ptr connections(new TimedConnectionFactory(
      params, factory, *deadlines_, *perAddress_, std::chrono::milliseconds(options_.headerTimeoutMs)));
  server_ = std::make_unique<Poco::Net::TCPServer>(connections, *threadPool_, socket, params);
  server_->start();
}

void HttpServer::stop() {
  if (!server_) return;
  server_->stop();  // stops accepting; running connections finish
  threadPool_->joinAll();
  server_.reset();
  deadlines_.reset();
  threadPool_.reset();
}

void HttpServer::dispatch(void* pocoRequest, void* pocoResponse) {
  auto& request = *static_cast<HTTPServerRequest*>(pocoRequest);
  auto& response = *static_cast<HTTPServerResponse*>(pocoResponse);
  auto started = Clock::now();
  auto& requestImpl = static_cast<Poco::Net::HTTPServerRequestImpl&>(request);
  Poco::Net::StreamSocket& socket = requestImpl.socket();
  Poco::Net::SocketImpl* socketKey = socket.impl();
  deadlines_->disarm(socketKey);

  const std::string requestId = acceptRequestId(request.get("X-Request-Id", ""));
  const std::string uri = request.getURI();
  auto question = uri.find('?');
  const std::string rawPath = uri.substr(0, question);
  const std::string rawQuery = question == std::string::npos ? "" : uri.substr(question + 1);

  std::string remote = request.clientAddress().host().toString();
  std::string scheme = "http";
  // Through a trusted proxy that named no client, the client is unknown: /metrics must not
  // take the proxy's (loopback) address for it.
  bool clientUnknown = false;
  if (std::find(options_.trustedProxies.begin(), options_.trustedProxies.end(), remote) !=
      options_.trustedProxies.end()) {
    std::string forwarded = request.get("X-Forwarded-For", "");
    clientUnknown = forwarded.find_first_not_of(" ,") == std::string::npos;
    if (!forwarded.empty()) {
      auto comma = forwarded.rfind(',');
      std::string last = comma == std::string::npos ? forwarded : forwarded.substr(comma + 1);
      auto b = last.find_first_not_of(' ');
      if (b != std::string::npos) remote = last.substr(b);
    }
    std::string proto = request.get("X-Forwarded-Proto", "");
    if (proto == "https" || proto == "http") scheme = proto;
  }
  const std::string host = request.getHost();
  const std::string origin = request.get("Origin", "");
  bool originAllowed = false;
  if (!origin.empty()) {
    originAllowed = std::find(options_.allowedOrigins.begin(), options_.allowedOrigins.end(), origin) !=
                        options_.allowedOrigins.end() ||
                    origin == scheme + "://" + host;
  }

  Response out;
  bool upgraded = false;
  bool spaAnswer = false;  // the SPA's files and pages get its policy, route answers the locked one
  bool closeAfter = false;
  std::size_t bytesIn = 0;
  std::string methodText = request.getMethod();
  auto method = parseMethod(methodText);
  // The route label of the request metrics: a template, never a raw path (unbounded).
  std::string routeLabel = "unmatched";
  InFlight inFlight(httpMetrics_ ? &httpMetrics_->inFlight : nullptr);
  auto recordMetrics = [&](int status) {
    if (!httpMetrics_) return;
    std::string methodLabel = method ? std::string(methodName(*method)) : "other";
    httpMetrics_->requests.inc({routeLabel, methodLabel, std::to_string(status)});
    httpMetrics_->duration.observe(std::chrono::duration<double>(Clock::now() - started).count(), {routeLabel, methodLabel});
  };

  try {
    if (rawPath.empty() || rawPath.front() != '/') throw HttpError::badRequest("Malformed request target");
    if (!method) throw HttpError(405, "method_not_allowed", "Method " + methodText + " is not supported");

    Request::Init init;
    init.method = *method;
    init.path = rawPath;
    init.rawQuery = rawQuery;
    init.host = host;
    init.scheme = scheme;
    init.remoteAddress = remote;
    init.requestId = requestId;
    for (const auto& [name, value] : request) init.headers.emplace_back(name, value);
    const Request* self = nullptr;
    init.resolvePrincipal = [this, &self]() -> std::optional<Principal> {
      if (!hooks_.authenticate || !self) return std::nullopt;
      return hooks_.authenticate(*self);
    };

    bool wantsUpgrade = containsToken(request.get("Connection", ""), "upgrade") &&
                        equalsIgnoreCase(request.get("Upgrade", ""), "websocket");
    auto endpoint = endpoints_.find(rawPath);

    if (*method == Method::Options && !origin.empty() && request.has("Access-Control-Request-Method")) {
      routeLabel = "preflight";
      if (!originAllowed) throw HttpError::forbidden("Origin " + origin + " is not allowed");
      out.noContent();
      out.setHeader("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      std::string requested = request.get("Access-Control-Request-Headers", "");
      out.setHeader("Access-Control-Allow-Headers",
                    requested.empty() ? "Authorization, Content-Type, Mode, filename, X-Request-Id" : requested);
      out.setHeader("Access-Control-Max-Age", "600");
    } else if (rawPath == "/healthz") {
      routeLabel = rawPath;
      out.json({{"status", "ok"}});
    } else if (rawPath == "/readyz") {
      routeLabel = rawPath;
      bool ready = hooks_.ready && hooks_.ready();
      out.json({{"status", ready ? "ready" : "starting"}}, ready ? 200 : 503);
    } else if (rawPath == "/metrics" && (*method == Method::Get || *method == Method::Head)) {
      routeLabel = rawPath;
      // Not there at all for a caller who may not read it.
      if (!hooks_.metrics || !metricsAccess_.allows(clientUnknown ? "" : remote, request.get("Authorization", "")))
        throw HttpError::notFound("No route for " + methodText + " " + rawPath);
      out.text(hooks_.metrics->render(), "text/plain; version=0.0.4; charset=utf-8");
      out.setHeader("Cache-Control", "no-store");
    } else if (rawPath == "/config.json" && (*method == Method::Get || *method == Method::Head)) {
      routeLabel = rawPath;
      Request docsRequest(std::move(init));
      self = &docsRequest;
      out.json(hooks_.clientConfig ? hooks_.clientConfig(docsRequest) : Json::object());
      out.setHeader("Cache-Control", "no-cache");
    } else if (endpoint != endpoints_.end() && wantsUpgrade && *method == Method::Get) {
      Request docsRequest(std::move(init));
      self = &docsRequest;
      // Each open WebSocket holds a slot of its address until it closes (the cap of
      // HTTP connections no longer sees it once it leaves the worker pool).
      routeLabel = rawPath;
      auto slots = webSocketsPerAddress_;
      if (!slots->tryAcquire(remote)) {
        out.setHeader("Retry-After", "5");
        throw HttpError(429, "too_many_websockets", "Too many WebSockets from your address");
      }
      Gauge* openSockets = httpMetrics_ ? &httpMetrics_->webSockets : nullptr;
      if (openSockets) openSockets->add(1);
      auto release = [slots, remote, openSockets] {
        slots->release(remote);
        if (openSockets) openSockets->add(-1);
      };
      std::unique_ptr<Poco::Net::WebSocket> handshake;
      try {
        handshake = std::make_unique<Poco::Net::WebSocket>(request, response);
      } catch (const Poco::Net::WebSocketException& error) {
        release();
        throw HttpError::badRequest("WebSocket handshake failed: " + error.displayText(), "bad_handshake");
      } catch (...) {
        release();
        throw;
      }
      upgraded = true;
      // Our own descriptor for the event loop; POCO closes its copy when it lets go.
      int fd = ::dup(handshake->impl()->sockfd());
      handshake.reset();
      if (fd < 0) release();
      if (fd >= 0) {
        auto connection = hub_.adopt(fd, remote, endpoint->second.options, release);
        std::unique_ptr<WebSocketSession> session;
        std::string refusal;
        try {
          session = endpoint->second.acceptor(docsRequest, connection);
          if (!session) refusal = "refused";
        } catch (const HttpError& error) {
          refusal = error.what();
        } catch (const std::exception& error) {
          refusal = "internal error";
          if (accessLog_) accessLog_->error("websocket acceptor failed", {{"request_id", requestId}, {"error", error.what()}});
        }
        hub_.attach(connection, std::move(session));
        if (!refusal.empty()) connection->close(1008, refusal);
      }
    } else {
      auto match = router_.match(*method, rawPath);
      switch (match.kind) {
        case RouteMatch::Kind::BadPath:
          throw HttpError::badRequest("Malformed path");
        case RouteMatch::Kind::MethodNotAllowed: {
          std::string allow;
          for (Method m : match.allowed) allow += (allow.empty() ? "" : ", ") + std::string(methodName(m));
          out.setHeader("Allow", allow);
          throw HttpError(405, "method_not_allowed", "Method " + methodText + " is not allowed here");
        }
        case RouteMatch::Kind::NotFound: {
          bool apiPath = rawPath.rfind("/api/", 0) == 0 || rawPath == "/api" || rawPath.rfind("/lab/", 0) == 0;
          if (apiPath || (*method != Method::Get && *method != Method::Head))
            throw HttpError::notFound("No route for " + methodText + " " + rawPath);
          StaticConditions conditions{options_.compression ? request.get("Accept-Encoding", "") : "", request.get("Range", ""),
                                      request.get("If-Range", ""), request.get("If-None-Match", "")};
          routeLabel = "static";
          staticFiles_.serve(rawPath, requestId, out, conditions);
          spaAnswer = true;
          break;
        }
        case RouteMatch::Kind::Found: {
          const Route& route = *match.route;
          routeLabel = route.pathTemplate;
          bool hasBody = request.hasContentLength() || request.getChunkedTransferEncoding();
          AmbientRequest ambient;
          ambient.method = *method;
          ambient.hasAuthorization = request.has("Authorization");
          ambient.origin = origin;
          ambient.originAllowed = originAllowed;
          ambient.secFetchSite = request.get("Sec-Fetch-Site", "");
          ambient.contentType = request.get("Content-Type", "");
          ambient.hasBody = request.getChunkedTransferEncoding() || (request.hasContentLength() && request.getContentLength64() > 0);
          ambient.uploadRoute = route.options.streamBody;
          try {
            refuseCrossSite(ambient);
          } catch (const HttpError&) {
            if (hasBody) closeAfter = true;  // the body stays unread
            throw;
          }
          std::optional<LimitedBodyReader> reader;
          if (request.hasContentLength() && static_cast<std::uint64_t>(request.getContentLength64()) >
                                                route.options.maxBodyBytes) {
            closeAfter = true;  // the unread body makes the connection unusable
            throw HttpError::payloadTooLarge("Request body is larger than " +
                                             std::to_string(route.options.maxBodyBytes) + " bytes");
          }
          // A large body is read only for a caller we know (streaming handlers check first):
          // at once when its length says so, or once a chunked one grows past the bound.
          bool callerChecked = route.options.streamBody || route.options.anonymousBody;
          auto requireCallerForLargeBody = [&] {
            if (callerChecked) return;
            callerChecked = true;
            Request probe{Request::Init(init)};
            std::optional<Principal> caller;
            try {
              caller = hooks_.authenticate ? hooks_.authenticate(probe) : std::nullopt;
            } catch (...) {
              closeAfter = true;
              throw;
            }
            if (!caller) {
              closeAfter = true;
              throw HttpError::unauthorized();
            }
          };
          if (request.hasContentLength() && static_cast<std::uint64_t>(request.getContentLength64()) > options_.anonymousBodyBytes)
            requireCallerForLargeBody();
          // The whole body must come at the minimum rate: one deadline, moved on as bytes arrive.
          const auto bodyStarted = Clock::now();
          const BodyRate rate{std::chrono::milliseconds(options_.bodyGraceMs), options_.bodyMinRate};
          auto pace = [&](std::uint64_t received, std::size_t wanted) {
            auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - bodyStarted);
            deadlines_->arm(socket, bodyTimeLeft(rate, received + wanted, elapsed));
          };
          if (route.options.streamBody) {
            reader.emplace(hasBody ? &request.stream() : nullptr, route.options.maxBodyBytes, pace);
            init.bodyReader = &*reader;
          } else if (hasBody) {
            std::istream& in = request.stream();
            char buffer[16384];
            while (in) {
              pace(init.body.size(), sizeof buffer);
              in.read(buffer, sizeof buffer);
              auto n = static_cast<std::size_t>(in.gcount());
              if (init.body.size() + n > route.options.maxBodyBytes) {
                closeAfter = true;
                throw HttpError::payloadTooLarge("Request body is larger than " +
                                                 std::to_string(route.options.maxBodyBytes) + " bytes");
              }
              init.body.append(buffer, n);
              if (init.body.size() > options_.anonymousBodyBytes) requireCallerForLargeBody();
            }
            deadlines_->disarm(socketKey);
            bytesIn = init.body.size();
            if (request.hasContentLength() && bytesIn < static_cast<std::uint64_t>(request.getContentLength64())) {
              closeAfter = true;
              throw HttpError(408, "body_timeout", "The request body did not arrive in time");
            }
          }
          Request docsRequest(std::move(init));
          self = &docsRequest;
          docsRequest.setPathParams(match.params);
          try {
            route.handler(docsRequest, out);
          } catch (...) {
            if (reader && !reader->finished()) closeAfter = true;
            deadlines_->disarm(socketKey);
            throw;
          }
          deadlines_->disarm(socketKey);
          if (reader && !reader->finished()) closeAfter = true;
          break;
        }
      }
    }
  } catch (const HttpError& error) {
    out.json(errorBody(error.code(), error.what(), requestId), error.status());
  } catch (const Poco::Exception& error) {
    // I/O trouble while reading the request: the client went away or stalled.
    closeAfter = true;
    out.json(errorBody("bad_request", "The request could not be read", requestId), 400);
    if (accessLog_) accessLog_->warn("request read failed", {{"request_id", requestId}, {"error", error.displayText()}});
  } catch (const std::exception& error) {
    out.json(errorBody("internal", "Internal server error", requestId), 500);
    if (accessLog_)
      accessLog_->error("handler failed", {{"request_id", requestId}, {"path", rawPath}, {"error", error.what()}});
  }

  if (upgraded) {
    recordMetrics(101);
    if (accessLog_)
      accessLog_->info("websocket", {{"request_id", requestId}, {"path", rawPath}, {"remote", remote}});
    return;  // the event loop owns the socket now; no header deadline
  }

  std::uint64_t bytesOut = 0;
  try {
    if (originAllowed) {
      out.setHeader("Access-Control-Allow-Origin", origin);
      out.setHeader("Access-Control-Allow-Credentials", "true");
      out.setHeader("Access-Control-Expose-Headers", "set-auth-jwt, Authorization, X-Request-Id");
      out.addHeader("Vary", "Origin");
    }
    out.setHeader("X-Request-Id", requestId);
    out.setHeader("X-Content-Type-Options", "nosniff");
    browserHeaders_.apply(out, spaAnswer, scheme, host);
    response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(out.status()));
    for (const auto& [name, value] : out.headers()) {
      if (equalsIgnoreCase(name, "Content-Type")) response.setContentType(value);
      else response.add(name, value);
    }
    if (closeAfter) response.setKeepAlive(false);
    if (out.filePath()) {
      // A copy: sendFile rewrites the header the reference would point into.
      const std::string contentType = response.getContentType();
      response.sendFile(*out.filePath(), contentType);
      bytesOut = static_cast<std::uint64_t>(response.getContentLength64());
    } else if (out.status() == 204 || out.status() == 304) {
      response.setContentLength(0);
      response.send();
    } else {
      const std::string* body = &out.body();
      std::string encoded;
      if (options_.compression && compressibleAnswer(out)) {
        response.add("Vary", "Accept-Encoding");
        Coding coding = chooseCoding(request.get("Accept-Encoding", ""), true, true);
        if (coding != Coding::Identity && method != Method::Head) {
          encoded = coding == Coding::Brotli ? brotliEncode(out.body()) : gzipEncode(out.body());
          response.set("Content-Encoding", std::string(codingName(coding)));
          body = &encoded;
        }
      }
      response.setContentLength64(static_cast<Poco::Int64>(body->size()));
      std::ostream& stream = response.send();
      if (method != Method::Head) stream.write(body->data(), static_cast<std::streamsize>(body->size()));
      bytesOut = body->size();
    }
  } catch (const std::exception&) {
    closeAfter = true;  // the client went away mid-response
  }

  recordMetrics(out.status());
  if (accessLog_) {
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    accessLog_->info("request", {{"request_id", requestId}, {"method", methodText}, {"path", rawPath},
                                 {"status", out.status()}, {"ms", std::round(ms * 100) / 100},
                                 {"bytes_in", bytesIn}, {"bytes_out", bytesOut}, {"remote", remote}});
  }
  if (!closeAfter)
    deadlines_->arm(socket, std::chrono::milliseconds(options_.keepAliveTimeoutMs + options_.headerTimeoutMs));
}

}  // namespace docs::core
