#pragma once
// Turns a request (cookie or bearer token) or a raw token into a principal.
// Implemented by the auth plugin; the core asks it when a handler wants the caller.

#include <optional>
#include <string_view>

#include "docs/http.hpp"

namespace docs {

class Authenticator {
 public:
  static constexpr const char* kServiceId = "docs.authenticator/1";
  virtual ~Authenticator();
  virtual std::optional<Principal> authenticate(const Request& request) = 0;
  virtual std::optional<Principal> authenticateToken(std::string_view token) = 0;
};

}  // namespace docs
