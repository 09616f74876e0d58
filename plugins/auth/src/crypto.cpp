#include "crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <memory>
#include <stdexcept>

namespace docs::auth {
namespace {

struct PkeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

const char* kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const char* kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string encode(std::string_view bytes, const char* alphabet, bool pad) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (std::size_t rest = bytes.size() - i) {
    std::uint32_t v = std::uint8_t(bytes[i]) << 16;
    if (rest == 2) v |= std::uint8_t(bytes[i + 1]) << 8;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    if (rest == 2) out += alphabet[(v >> 6) & 63];
    if (pad) out.append(rest == 2 ? 1 : 2, '=');
  }
  return out;
}

std::optional<std::string> decode(std::string_view text, const char* alphabet, bool padded) {
  if (padded) {
    if (text.size() % 4 != 0) return std::nullopt;
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  }
  if (text.size() % 4 == 1) return std::nullopt;
  int table[256];
  for (int& t : table) t = -1;
  for (int k = 0; k < 64; ++k) table[static_cast<unsigned char>(alphabet[k])] = k;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int v = table[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  // Leftover bits must be zero, so every byte string has exactly one encoding.
  if (bits > 0 && (buffer & ((1u << bits) - 1)) != 0) return std::nullopt;
  return out;
}

}  // namespace

std::string randomBytes(std::size_t count) {
  std::string out(count, '\0');
  if (count && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return out;
}

std::string randomDigits(int digits) {
  std::string out;
  while (static_cast<int>(out.size()) < digits) {
    // Rejection sampling: bytes of 250 and above would bias the digits.
    for (unsigned char b : randomBytes(16)) {
      if (b < 250 && static_cast<int>(out.size()) < digits) out += static_cast<char>('0' + b % 10);
    }
  }
  return out;
}

std::string randomToken(std::size_t bytes) { return base64UrlEncode(randomBytes(bytes)); }

std::string base64UrlEncode(std::string_view bytes) { return encode(bytes, kBase64Url, false); }
std::optional<std::string> base64UrlDecode(std::string_view text) { return decode(text, kBase64Url, false); }
std::string base64Encode(std::string_view bytes) { return encode(bytes, kBase64, true); }
std::optional<std::string> base64Decode(std::string_view text) { return decode(text, kBase64, true); }

std::string sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

std::string hmacSha256(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
            data.size(), digest, &length))
    throw std::runtime_error("HMAC failed");
  return std::string(reinterpret_cast<char*>(digest), length);
}

bool constantTimeEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

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
  PkeyPtr key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr,
                                           reinterpret_cast<const unsigned char*>(privateKey.data()), privateKey.size()));
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

}  // namespace docs::auth
