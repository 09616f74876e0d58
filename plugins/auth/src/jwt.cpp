#include "jwt.hpp"

#include "crypto.hpp"

namespace docs_auth {

using nlohmann::json;

std::string signJwt(const json& claims, std::string_view kid, std::string_view privateKey) {
  json header = {{"alg", "EdDSA"}, {"typ", "JWT"}, {"kid", kid}};
  std::string input = docs::codec::base64UrlEncode(header.dump()) + "." + docs::codec::base64UrlEncode(claims.dump());
  return input + "." + docs::codec::base64UrlEncode(ed25519Sign(privateKey, input));
}

std::string_view describe(JwtError error) {
  switch (error) {
    case JwtError::Malformed: return "malformed token";
    case JwtError::Algorithm: return "unsupported token algorithm";
    case JwtError::UnknownKey: return "token signed by an unknown key";
    case JwtError::Signature: return "bad token signature";
    case JwtError::Expired: return "token expired";
    case JwtError::NotYetValid: return "token not valid yet";
    case JwtError::Issuer: return "token from another issuer";
    case JwtError::Audience: return "token meant for another audience";
  }
  return "invalid token";
}

JwtResult verifyJwt(std::string_view token,
                    const std::function<std::optional<std::string>(const std::string& kid)>& publicKeyFor,
                    std::int64_t now, const JwtExpectations& expected, std::int64_t leeway) {
  JwtResult result;
  if (token.size() > 8192) return result;
  auto first = token.find('.');
  auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) return result;
  auto headerText = docs::codec::base64UrlDecode(token.substr(0, first));
  auto payloadText = docs::codec::base64UrlDecode(token.substr(first + 1, second - first - 1));
  auto signature = docs::codec::base64UrlDecode(token.substr(second + 1));
  if (!headerText || !payloadText || !signature) return result;
  json header = json::parse(*headerText, nullptr, false);
  json payload = json::parse(*payloadText, nullptr, false);
  if (!header.is_object() || !payload.is_object()) return result;
  if (!header.contains("alg") || header["alg"] != "EdDSA") {
    result.error = JwtError::Algorithm;
    return result;
  }
  if (!header.contains("kid") || !header["kid"].is_string()) {
    result.error = JwtError::UnknownKey;
    return result;
  }
  auto key = publicKeyFor(header["kid"].get<std::string>());
  if (!key) {
    result.error = JwtError::UnknownKey;
    return result;
  }
  if (!ed25519Verify(*key, token.substr(0, second), *signature)) {
    result.error = JwtError::Signature;
    return result;
  }
  if (!payload.contains("exp") || !payload["exp"].is_number_integer() ||
      payload["exp"].get<std::int64_t>() + leeway <= now) {
    result.error = JwtError::Expired;
    return result;
  }
  if (payload.contains("nbf") &&
      (!payload["nbf"].is_number_integer() || payload["nbf"].get<std::int64_t>() - leeway > now)) {
    result.error = JwtError::NotYetValid;
    return result;
  }
  if (expected.issuer.empty() || !payload.contains("iss") || payload["iss"] != expected.issuer) {
    result.error = JwtError::Issuer;
    return result;
  }
  bool meantForUs = false;
  if (payload.contains("aud")) {
    const auto& aud = payload["aud"];
    if (aud.is_string()) meantForUs = aud == expected.audience;
    else if (aud.is_array())
      for (const auto& one : aud) meantForUs = meantForUs || (one.is_string() && one == expected.audience);
  }
  if (expected.audience.empty() || !meantForUs) {
    result.error = JwtError::Audience;
    return result;
  }
  result.claims = std::move(payload);
  return result;
}

}  // namespace docs_auth
