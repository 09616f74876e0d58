#include "http/exchange.hpp"

#include <Poco/Net/HTTPServerRequestImpl.h>

namespace docs::core {

Exchange::Exchange(Poco::Net::HTTPServerRequest& pocoRequest, Poco::Net::HTTPServerResponse& pocoResponse,
                   std::string id)
    : request(pocoRequest),
      response(pocoResponse),
      socket(static_cast<Poco::Net::HTTPServerRequestImpl&>(pocoRequest).socket()),
      started(std::chrono::steady_clock::now()),
      requestId(std::move(id)) {}

}  // namespace docs::core
