#pragma once
// GitHub's webhook signature: X-Hub-Signature-256 = "sha256=" + hex(HMAC-SHA256(secret,
// raw body)), compared in constant time. The SHA-1 header alone is not accepted.

#include <cstddef>
#include <string>
#include <string_view>

namespace docs {
class BodyReader;
}

namespace docs_github {

// "sha256=" and 64 hex digits.
inline constexpr std::size_t kWebhookSignatureSize = 71;

std::string webhookSignature(std::string_view secret, std::string_view body);
bool validWebhookSignature(std::string_view secret, std::string_view body, std::string_view header);

// Reads the whole body, signing it as it arrives; returns it when `header` is its
// signature, else throws 401 bad_signature.
std::string readSignedBody(docs::BodyReader& reader, std::string_view secret, std::string_view header);

// Lower-case hex SHA-256 of the body: what a delivery is remembered by besides its id.
std::string bodyDigest(std::string_view body);

}  // namespace docs_github
