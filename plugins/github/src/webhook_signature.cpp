#include "webhook_signature.hpp"

#include <docs/codec/codec.hpp>
#include <docs/http.hpp>

namespace docs_github {

std::string webhookSignature(std::string_view secret, std::string_view body) {
  return "sha256=" + docs::codec::hexEncode(docs::codec::hmacSha256(secret, body));
}

bool validWebhookSignature(std::string_view secret, std::string_view body, std::string_view header) {
  if (secret.empty()) return false;
  // Length first (it is public: always 71), then the bytes without an early exit.
  return docs::codec::constantTimeEqual(header, webhookSignature(secret, body));
}

std::string readSignedBody(docs::BodyReader& reader, std::string_view secret, std::string_view header) {
  docs::codec::HmacSha256 mac(secret);
  std::string body;
  char buffer[16384];
  while (std::size_t n = reader.read(buffer, sizeof buffer)) {
    body.append(buffer, n);
    mac.update(std::string_view(buffer, n));
  }
  if (!docs::codec::constantTimeEqual(header, "sha256=" + docs::codec::hexEncode(mac.finish())))
    throw docs::HttpError(401, "bad_signature", "The signature does not match");
  return body;
}

std::string bodyDigest(std::string_view body) { return docs::codec::sha256Hex(body); }

}  // namespace docs_github
