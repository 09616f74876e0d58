#include "webhook_signature.hpp"

#include <docs/support/digest.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace docs::github {

std::string webhookSignature(std::string_view secret, std::string_view body) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), reinterpret_cast<const unsigned char*>(body.data()),
       body.size(), digest, &length);
  static const char* hex = "0123456789abcdef";
  std::string out = "sha256=";
  for (unsigned int i = 0; i < length; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

bool validWebhookSignature(std::string_view secret, std::string_view body, std::string_view header) {
  if (secret.empty()) return false;
  std::string expected = webhookSignature(secret, body);
  // Length first (it is public: always 71), then the bytes without an early exit.
  return header.size() == expected.size() && CRYPTO_memcmp(header.data(), expected.data(), expected.size()) == 0;
}

std::string bodyDigest(std::string_view body) { return support::sha256Hex(body); }

}  // namespace docs::github
