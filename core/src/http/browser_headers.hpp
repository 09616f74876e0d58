#pragma once
// Browser security headers: the SPA's Content-Security-Policy (built from the
// configuration, so sub-host deployments name their API, auth, rag and collaboration
// origins), a locked-down policy for everything answered by a route (JSON, exports,
// images), and the headers every answer carries (frame-ancestors' legacy twin
// X-Frame-Options, Referrer-Policy, Cross-Origin-Opener-Policy, HSTS when the public
// URL is https). docs/security.md#browser-headers explains each choice.

#include <cstdint>
#include <string>
#include <vector>

#include "docs/http.hpp"

namespace docs::core {

// The addresses the SPA talks to (what /config.json tells it), for a request that came to
// scheme://host. One rule for /config.json and for connect-src, so they never disagree.
struct ClientOrigins {
  std::string authUrl, apiUrl, ragUrl, collabUrl;  // collabUrl ends in /collaboration
};
ClientOrigins clientOrigins(const std::string& publicUrl, bool subhosts, const std::string& scheme,
                            const std::string& host);

struct BrowserHeaderOptions {
  std::string publicUrl;  // without a trailing slash; may be empty
  bool subhosts = false;
  // server.content_security_policy: replaces the SPA's policy; "off" sends none.
  std::string spaPolicyOverride;
  std::int64_t hstsMaxAge = 31536000;  // seconds; 0: no Strict-Transport-Security
  bool hstsIncludeSubdomains = false;
};

class BrowserHeaders {
 public:
  explicit BrowserHeaders(BrowserHeaderOptions options);

  // The policy of the SPA's documents and files for a request to scheme://host.
  std::string spaPolicy(const std::string& scheme, const std::string& host) const;
  // The policy of what routes answer when they set none themselves: nothing may load, run,
  // frame it or be framed; an HTML answer opened as a page is sandboxed (no script, an
  // opaque origin).
  static const std::string& routePolicy();

  // Adds the headers to an answer: `spa` for the SPA's files (static files, index.html
  // fallback), else a route's answer (its own Content-Security-Policy is kept).
  void apply(Response& response, bool spa, const std::string& scheme, const std::string& host) const;

 private:
  BrowserHeaderOptions options_;
  std::string hsts_;  // empty: not sent
};

}  // namespace docs::core
