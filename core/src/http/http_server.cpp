#include "http/http_server.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServerConnection.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/Net/TCPServerConnectionFactory.h>
#include <Poco/Net/TCPServerParams.h>
#include <Poco/ThreadPool.h>
#include <fcntl.h>

#include <cctype>
#include <chrono>
#include <random>
#include <utility>

#include <docs/codec/codec.hpp>

#include "http/header_deadlines.hpp"
#include "http/stages.hpp"
#include "metrics/core_metrics.hpp"

namespace docs::core {

using Poco::Net::HTTPServerRequest;
using Poco::Net::HTTPServerResponse;

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
      : HTTPServerConnection(socket, std::move(params), std::move(factory)),
        deadlines_(deadlines),
        perAddress_(perAddress),
        address_(std::move(address)),
        key_(socket.impl()) {}
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
    std::string reply =
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
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
                         HeaderDeadlines& deadlines, ConnectionsPerAddress& perAddress,
                         std::chrono::milliseconds headerTimeout)
      : params_(std::move(params)),
        factory_(std::move(factory)),
        deadlines_(deadlines),
        perAddress_(perAddress),
        headerTimeout_(headerTimeout) {}
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

}  // namespace

HttpServer::HttpServer(HttpServerOptions options, Router& router, std::vector<WebSocketEndpoint> endpoints,
                       WebSocketHub& hub, ServerHooks hooks, std::shared_ptr<Logger> accessLog)
    : options_(std::move(options)),
      router_(router),
      hub_(hub),
      hooks_(std::move(hooks)),
      accessLog_(std::move(accessLog)),
      staticFiles_(options_.webRoot),
      browserHeaders_(options_.browser),
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
  webSocketsPerAddress_ =
      std::make_shared<ConnectionsPerAddress>(options_.maxWebSocketsPerAddress, options_.trustedProxies);
  anonymousBodies_ = std::make_unique<ByteBudget>(options_.anonymousBodyBudgetBytes);
  threadPool_ = std::make_unique<Poco::ThreadPool>(4, options_.maxThreads, 60);
  Poco::Net::HTTPRequestHandlerFactory::Ptr factory(new DispatchFactory(*this));
  Poco::Net::TCPServerConnectionFactory::Ptr connections(new TimedConnectionFactory(
      params, factory, *deadlines_, *perAddress_, std::chrono::milliseconds(options_.headerTimeoutMs)));
  parts_.reset(new ServerParts{options_, router_, endpoints_, hub_, hooks_, accessLog_.get(), staticFiles_,
                               browserHeaders_, metricsAccess_, httpMetrics_.get(), *deadlines_, *anonymousBodies_,
                               webSocketsPerAddress_});
  server_ = std::make_unique<Poco::Net::TCPServer>(connections, *threadPool_, socket, params);
  server_->start();
}

void HttpServer::stop() {
  if (!server_) return;
  server_->stop();  // stops accepting; running connections finish
  threadPool_->joinAll();
  server_.reset();
  parts_.reset();
  deadlines_.reset();
  threadPool_.reset();
}

// The stages (http/stages.hpp) in their order: what the request asks, then the answer to
// it or to the failure that stopped them, then sending, counting and logging it.
void HttpServer::dispatch(void* pocoRequest, void* pocoResponse) {
  auto& request = *static_cast<HTTPServerRequest*>(pocoRequest);
  Exchange exchange(request, *static_cast<HTTPServerResponse*>(pocoResponse),
                    acceptRequestId(request.get("X-Request-Id", "")));
  deadlines_->disarm(exchange.socket.impl());
  InFlight inFlight(httpMetrics_ ? &httpMetrics_->inFlight : nullptr);
  try {
    runStages(kAnswerStages, *parts_, exchange);
  } catch (...) {
    answerFailure(*parts_, exchange);  // what is no std::exception goes on to POCO
  }
  runStages(kFinishStages, *parts_, exchange);
}

}  // namespace docs::core
