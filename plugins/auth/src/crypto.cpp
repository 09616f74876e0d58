#include "crypto.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace docs_auth {
namespace {

struct PkeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

}  // namespace

std::string randomDigits(int digits) {
  std::string out;
  while (static_cast<int>(out.size()) < digits) {
    // Rejection sampling: bytes of 250 and above would bias the digits.
    for (unsigned char b : docs::codec::randomBytes(16)) {
      if (b < 250 && static_cast<int>(out.size()) < digits) out += static_cast<char>('0' + b % 10);
    }
  }
  return out;
}

std::string randomToken(std::size_t bytes) { return docs::codec::base64UrlEncode(docs::codec::randomBytes(bytes)); }

Ed25519KeyPair generateEd25519() {
  PkeyPtr key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  if (!key) throw std::runtime_error("Ed25519 key generation failed");
  Ed25519KeyPair pair;
  std::size_t length = 32;
  pair.privateKey.resize(32);
  pair.publicKey.resize(32);
  if (EVP_PKEY_get_raw_private_key(key.get(), reinterpret_cast<unsigned char*>(pair.privateKey.data()), &length) != 1 ||
      length != 32)
    throw std::runtime_error("Ed25519 private key export failed");
  length = 32;
  if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(pair.publicKey.data()), &length) != 1 ||
      length != 32)
    throw std::runtime_error("Ed25519 public key export failed");
  return pair;
}

std::string ed25519Sign(std::string_view privateKey, std::string_view message) {
  PkeyPtr key(EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(privateKey.data()), privateKey.size()));
  if (!key) throw std::runtime_error("invalid Ed25519 private key");
  MdCtxPtr ctx(EVP_MD_CTX_new());
  std::string signature(64, '\0');
  std::size_t length = signature.size();
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1)
    throw std::runtime_error("Ed25519 signing failed");
  signature.resize(length);
  return signature;
}

bool ed25519Verify(std::string_view publicKey, std::string_view message, std::string_view signature) {
  if (publicKey.size() != 32 || signature.size() != 64) return false;
  PkeyPtr key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                          reinterpret_cast<const unsigned char*>(publicKey.data()), publicKey.size()));
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
}

}  // namespace docs_auth
