#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

#include "docs/codec/codec.hpp"

namespace docs::codec {

std::string sha256(std::string_view data) {
  std::string digest(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), reinterpret_cast<unsigned char*>(digest.data()), &length, EVP_sha256(),
                 nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  digest.resize(length);
  return digest;
}

std::string sha256Hex(std::string_view data) { return hexEncode(sha256(data)); }

std::string hmacSha256(std::string_view key, std::string_view data) {
  std::string mac(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
            data.size(), reinterpret_cast<unsigned char*>(mac.data()), &length))
    throw std::runtime_error("HMAC-SHA256 failed");
  mac.resize(length);
  return mac;
}

bool constantTimeEqual(std::string_view a, std::string_view b) {
  // The size is not secret (a MAC's or a hash's is fixed); the bytes are compared without an early exit.
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace docs::codec
