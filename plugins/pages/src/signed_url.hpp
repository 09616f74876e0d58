#pragma once
// Short-lived signed image URLs: an <img> sends no bearer token, so a reader of a private
// project can hand out a URL that works on its own until it expires.

#include <cstdint>
#include <string>
#include <string_view>

namespace docs_pages {

class UrlSigner {
 public:
  // An empty key makes a random one (fine for one node; set pages.url_signing_key on several).
  explicit UrlSigner(std::string key);
  // Hex HMAC-SHA256 of "<resource>\n<expires>".
  std::string sign(std::string_view resource, std::int64_t expiresUnix) const;
  bool verify(std::string_view resource, std::int64_t expiresUnix, std::string_view signature,
              std::int64_t nowUnix) const;

 private:
  std::string key_;
};

}  // namespace docs_pages
