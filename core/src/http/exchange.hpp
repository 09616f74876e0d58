#pragma once
// One HTTP request on its way through the server's stages (http/stages.hpp): what was read
// of it, what the stages decided, and the answer being built. It lives on the stack of
// HttpServer::dispatch for the one request.

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/StreamSocket.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "docs/http.hpp"
#include "http/body_reader.hpp"
#include "http/router.hpp"

namespace docs::core {

struct Exchange {
  Exchange(Poco::Net::HTTPServerRequest& pocoRequest, Poco::Net::HTTPServerResponse& pocoResponse, std::string id);
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  Poco::Net::HTTPServerRequest& request;
  Poco::Net::HTTPServerResponse& response;
  Poco::Net::StreamSocket& socket;  // the connection, whose deadlines the stages move
  const std::chrono::steady_clock::time_point started;
  const std::string requestId;

  // The request line.
  std::string rawPath;  // still percent-encoded, without the query
  std::string rawQuery;
  std::string methodText;
  std::optional<Method> method;  // none: a method the server does not know
  // The client, through a trusted proxy where one forwards it.
  std::string remote;
  std::string scheme = "http";
  bool clientUnknown = false;  // a trusted proxy named no client, or a proxy nobody declared forwarded it
  std::string host;
  std::string origin;          // "" when absent
  bool originAllowed = false;  // ours or in server.allowed_origins

  // What the handler will see: collected, then moved into `handlerRequest`.
  Request::Init init;
  std::optional<Request> handlerRequest;
  RouteMatch match;
  BudgetCharge anonymousBytes;  // an anonymous body's share of the server's budget (before bodyReader: it refers to it)
  std::optional<LimitedBodyReader> bodyReader;  // streaming routes
  bool callerChecked = false;                   // a large body's caller was authenticated

  // The answer.
  Response out;
  std::string routeLabel = "unmatched";    // the request metrics' route: a template, never a raw path
  bool upgraded = false;                   // a WebSocket now owns the connection
  bool spaAnswer = false;                  // the SPA's files and pages get its policy, route answers the locked one
  bool closeAfter = false;                 // the connection cannot serve another request (an unread body)
  std::optional<std::string> encodedBody;  // the answer's body compressed on the fly
  std::size_t bytesIn = 0;
  std::uint64_t bytesOut = 0;
};

}  // namespace docs::core
