#pragma once
// GitHub's webhook signature: X-Hub-Signature-256 = "sha256=" + hex(HMAC-SHA256(secret,
// raw body)), compared in constant time. The SHA-1 header alone is not accepted.

#include <string>
#include <string_view>

namespace docs_github {

std::string webhookSignature(std::string_view secret, std::string_view body);
bool validWebhookSignature(std::string_view secret, std::string_view body, std::string_view header);

// Lower-case hex SHA-256 of the body: what a delivery is remembered by besides its id.
std::string bodyDigest(std::string_view body);

}  // namespace docs_github
