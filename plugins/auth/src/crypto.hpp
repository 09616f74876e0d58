#pragma once
// The few cryptographic primitives auth needs, on OpenSSL: randomness, encodings,
// digests, HMAC, constant-time comparison and Ed25519 signatures.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docs::auth {

std::string randomBytes(std::size_t count);
// A uniformly random decimal string of `digits` digits (leading zeros allowed).
std::string randomDigits(int digits);
// URL-safe random token of `bytes` random bytes.
std::string randomToken(std::size_t bytes = 32);

std::string base64UrlEncode(std::string_view bytes);
std::optional<std::string> base64UrlDecode(std::string_view text);
std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

std::string sha256Hex(std::string_view data);
std::string hmacSha256(std::string_view key, std::string_view data);  // raw 32 bytes
bool constantTimeEqual(std::string_view a, std::string_view b);

struct Ed25519KeyPair {
  std::string privateKey;  // raw 32-byte seed
  std::string publicKey;   // raw 32 bytes
};
Ed25519KeyPair generateEd25519();
std::string ed25519Sign(std::string_view privateKey, std::string_view message);
bool ed25519Verify(std::string_view publicKey, std::string_view message, std::string_view signature);

}  // namespace docs::auth
