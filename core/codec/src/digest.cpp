#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/params.h>

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

struct HmacSha256::State {
  EVP_MAC* mac = nullptr;
  EVP_MAC_CTX* context = nullptr;
};

HmacSha256::HmacSha256(std::string_view key) : state_(new State) {
  char digestName[] = "SHA256";
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0), OSSL_PARAM_END};
  state_->mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  state_->context = state_->mac ? EVP_MAC_CTX_new(state_->mac) : nullptr;
  if (!state_->context ||
      EVP_MAC_init(state_->context, reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1) {
    EVP_MAC_CTX_free(state_->context);
    EVP_MAC_free(state_->mac);
    delete state_;
    throw std::runtime_error("HMAC-SHA256 failed");
  }
}

HmacSha256::~HmacSha256() {
  EVP_MAC_CTX_free(state_->context);
  EVP_MAC_free(state_->mac);
  delete state_;
}

void HmacSha256::update(std::string_view data) {
  if (EVP_MAC_update(state_->context, reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1)
    throw std::runtime_error("HMAC-SHA256 failed");
}

std::string HmacSha256::finish() {
  std::string mac(EVP_MAX_MD_SIZE, '\0');
  std::size_t length = 0;
  if (EVP_MAC_final(state_->context, reinterpret_cast<unsigned char*>(mac.data()), &length, mac.size()) != 1)
    throw std::runtime_error("HMAC-SHA256 failed");
  mac.resize(length);
  return mac;
}

bool constantTimeEqual(std::string_view a, std::string_view b) {
  // The size is not secret (a MAC's or a hash's is fixed); the bytes are compared without an early exit.
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace docs::codec
