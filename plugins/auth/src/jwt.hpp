#pragma once
// JSON Web Tokens signed with Ed25519 (JWS alg "EdDSA"). Verification accepts exactly
// that algorithm: "none", HMAC algorithms and anything else are refused before any key
// is used, so a public key can never be mistaken for an HMAC secret. Every token must
// also name this deployment as its issuer (`iss`) and audience (`aud`): a token minted for
// another service or deployment with a shared key is refused.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace docs_auth {

std::string signJwt(const nlohmann::json& claims, std::string_view kid, std::string_view privateKey);

enum class JwtError { Malformed, Algorithm, UnknownKey, Signature, Expired, NotYetValid, Issuer, Audience };
std::string_view describe(JwtError error);

struct JwtResult {
  std::optional<nlohmann::json> claims;  // set when valid
  JwtError error = JwtError::Malformed;
};

// Who a token must come from and be meant for: `iss` must equal issuer, and `aud` must be
// audience or an array holding it. Both are required (a token without them is refused).
struct JwtExpectations {
  std::string issuer;
  std::string audience;
};

// publicKeyFor(kid) returns the raw Ed25519 public key, or nullopt for an unknown kid.
// `now` is seconds since the epoch; `leeway` tolerates clock skew between nodes.
JwtResult verifyJwt(std::string_view token,
                    const std::function<std::optional<std::string>(const std::string& kid)>& publicKeyFor,
                    std::int64_t now, const JwtExpectations& expected, std::int64_t leeway = 30);

}  // namespace docs_auth
