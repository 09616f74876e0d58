#include "signed_url.hpp"

#include <docs/codec/codec.hpp>

namespace docs_pages {

UrlSigner::UrlSigner(std::string key) : key_(std::move(key)) {
  if (key_.empty()) key_ = docs::codec::randomBytes(32);
}

std::string UrlSigner::sign(std::string_view resource, std::int64_t expiresUnix) const {
  std::string message = std::string(resource) + "\n" + std::to_string(expiresUnix);
  return docs::codec::hexEncode(docs::codec::hmacSha256(key_, message));
}

bool UrlSigner::verify(std::string_view resource, std::int64_t expiresUnix, std::string_view signature,
                       std::int64_t nowUnix) const {
  if (expiresUnix < nowUnix) return false;
  return docs::codec::constantTimeEqual(sign(resource, expiresUnix), signature);
}

}  // namespace docs_pages
