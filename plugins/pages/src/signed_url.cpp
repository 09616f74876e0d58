#include "signed_url.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace docs_pages {

UrlSigner::UrlSigner(std::string key) : key_(std::move(key)) {
  if (key_.empty()) {
    key_.resize(32);
    if (RAND_bytes(reinterpret_cast<unsigned char*>(key_.data()), static_cast<int>(key_.size())) != 1)
      throw std::runtime_error("no random bytes for the URL signing key");
  }
}

std::string UrlSigner::sign(std::string_view resource, std::int64_t expiresUnix) const {
  std::string message = std::string(resource) + "\n" + std::to_string(expiresUnix);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()), reinterpret_cast<const unsigned char*>(message.data()),
       message.size(), mac, &length);
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(digits[mac[i] >> 4]);
    hex.push_back(digits[mac[i] & 15]);
  }
  return hex;
}

bool UrlSigner::verify(std::string_view resource, std::int64_t expiresUnix, std::string_view signature,
                       std::int64_t nowUnix) const {
  if (expiresUnix < nowUnix) return false;
  std::string expected = sign(resource, expiresUnix);
  return signature.size() == expected.size() && CRYPTO_memcmp(expected.data(), signature.data(), expected.size()) == 0;
}

}  // namespace docs_pages
