#pragma once
// What auth needs beyond docs::codec (encodings, SHA-256, HMAC, constant-time comparison
// and random bytes, included here for auth's code): one-time codes, tokens and Ed25519
// signatures, on OpenSSL.

#include <cstdint>
#include <string>
#include <string_view>

#include <docs/codec/codec.hpp>

namespace docs_auth {

// A uniformly random decimal string of `digits` digits (leading zeros allowed).
std::string randomDigits(int digits);
// URL-safe random token of `bytes` random bytes.
std::string randomToken(std::size_t bytes = 32);

struct Ed25519KeyPair {
  std::string privateKey;  // raw 32-byte seed
  std::string publicKey;   // raw 32 bytes
};
Ed25519KeyPair generateEd25519();
std::string ed25519Sign(std::string_view privateKey, std::string_view message);
bool ed25519Verify(std::string_view publicKey, std::string_view message, std::string_view signature);

}  // namespace docs_auth
