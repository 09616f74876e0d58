#pragma once
// Browser security headers: the SPA's Content-Security-Policy (built from the
// configuration and the addresses plugins declare, so sub-host deployments name each
// origin the SPA talks to), a locked-down policy for everything answered by a route (JSON, exports,
// images), and the headers every answer carries (frame-ancestors' legacy twin
// X-Frame-Options, Referrer-Policy, Cross-Origin-Opener-Policy, HSTS when the public
// URL is https). docs/security.md#browser-headers explains each choice.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "docs/http.hpp"
#include "docs/registry.hpp"

namespace docs::core {

// A Host header is used (in the policy, in links) only when it is a plain host[:port]: it is
// the caller's to choose, and a ';', a space or an '@' would change what it means.
bool plainHost(const std::string& host);
// Request::publicOrigin(): the public URL (no trailing slash) when set, else scheme://host
// for a plain host, else "".
std::string publicOriginOf(const std::string& publicUrl, const std::string& scheme, const std::string& host);

// docsd's own API address: /config.json's apiUrl.
ClientEndpoint coreApiEndpoint();

// The addresses the SPA talks to (what /config.json tells it, by key), for a request that
// came to scheme://host; see ClientEndpoint for the rule. One rule for /config.json and for
// connect-src, so they never disagree.
std::map<std::string, std::string> clientUrls(const std::string& publicUrl, bool subhosts, const std::string& scheme,
                                              const std::string& host, const std::vector<ClientEndpoint>& endpoints);

struct BrowserHeaderOptions {
  std::string publicUrl;  // without a trailing slash; may be empty
  bool subhosts = false;
  // Every address of /config.json (docsd's API and the plugins'): connect-src names their
  // origins, ordered by sub-host name.
  std::vector<ClientEndpoint> endpoints;
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
