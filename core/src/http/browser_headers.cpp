#include "http/browser_headers.hpp"

#include <algorithm>
#include <cctype>

namespace docs::core {

bool plainHost(const std::string& host) {
  if (host.empty() || host.size() > 255) return false;
  for (char c : host) {
    auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '.' && c != '-' && c != ':' && c != '[' && c != ']') return false;
  }
  return true;
}

std::string publicOriginOf(const std::string& publicUrl, const std::string& scheme, const std::string& host) {
  if (!publicUrl.empty()) return publicUrl;
  return plainHost(host) ? scheme + "://" + host : std::string();
}

namespace {

// "wss://ws.docs.example.com/socket" -> "wss://ws.docs.example.com".
std::string originOf(const std::string& url) {
  auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  auto slash = url.find('/', scheme + 3);
  return slash == std::string::npos ? url : url.substr(0, slash);
}

}  // namespace

ClientEndpoint coreApiEndpoint() { return {"apiUrl", "api", "", false}; }

std::map<std::string, std::string> clientUrls(const std::string& publicUrl, bool subhosts, const std::string& scheme,
                                              const std::string& host, const std::vector<ClientEndpoint>& endpoints) {
  std::string origin = publicUrl.empty() ? scheme + "://" + host : publicUrl;
  std::string originScheme = origin.substr(0, origin.find("://"));
  std::string originHost = origin.substr(origin.find("://") + 3);
  std::map<std::string, std::string> urls;
  for (const auto& endpoint : endpoints) {
    std::string urlScheme = !endpoint.webSocket ? originScheme : originScheme == "https" ? "wss" : "ws";
    urls[endpoint.key] = urlScheme + "://" + (subhosts ? endpoint.subhost + "." : "") + originHost + endpoint.path;
  }
  return urls;
}

BrowserHeaders::BrowserHeaders(BrowserHeaderOptions options) : options_(std::move(options)) {
  // connect-src lists origins by sub-host name, whichever order the plugins configured in.
  std::stable_sort(options_.endpoints.begin(), options_.endpoints.end(),
                   [](const ClientEndpoint& a, const ClientEndpoint& b) { return a.subhost < b.subhost; });
  if (options_.hstsMaxAge > 0 && options_.publicUrl.rfind("https://", 0) == 0) {
    hsts_ = "max-age=" + std::to_string(options_.hstsMaxAge);
    if (options_.hstsIncludeSubdomains) hsts_ += "; includeSubDomains";
  }
}

std::string BrowserHeaders::spaPolicy(const std::string& scheme, const std::string& host) const {
  if (!options_.spaPolicyOverride.empty()) return options_.spaPolicyOverride;
  std::string connect = "'self'";
  std::string images = "'self' data: blob: https:";
  if (!options_.publicUrl.empty() || plainHost(host)) {
    auto urls = clientUrls(options_.publicUrl, options_.subhosts, scheme, host, options_.endpoints);
    // uploaded images come from the API's origin, which https: does not cover over http
    std::string api = originOf(urls[coreApiEndpoint().key]);
    if (api.rfind("http://", 0) == 0) images += " " + api;
    std::vector<std::string> seen;
    for (const auto& endpoint : options_.endpoints) {
      std::string origin = originOf(urls[endpoint.key]);
      bool known = false;
      for (const auto& s : seen) known = known || s == origin;
      if (known) continue;
      seen.push_back(origin);
      connect += " " + origin;
    }
  }
  // Each source list is what the SPA was measured to need in Chromium
  // (web/e2e/csp.e2e.test.mjs, docs/security.md#browser-headers): scripts, fonts and
  // workers only from our files; styles from our files plus inline ones (Tiptap's
  // injected <style>, mermaid's <style> and style="" in its SVG, ProseMirror's and d3's
  // style attributes); images from anywhere over https (generated pages show a README's
  // images, wherever they are), data: (Excalidraw's and our CSS icons, pasted images)
  // and blob: (an image shown while it uploads); YouTube frames for video blocks.
  return "default-src 'self'; "
         "script-src 'self'; "
         "style-src 'self' 'unsafe-inline'; "
         "img-src " +
         images +
         "; "
         "font-src 'self'; "
         "connect-src " +
         connect +
         "; "
         "frame-src https://www.youtube.com; "
         "worker-src 'self'; "
         "object-src 'none'; "
         "base-uri 'none'; "
         "form-action 'self'; "
         "frame-ancestors 'none'";
}

const std::string& BrowserHeaders::routePolicy() {
  static const std::string policy =
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";
  return policy;
}

void BrowserHeaders::apply(Response& response, bool spa, const std::string& scheme, const std::string& host) const {
  if (spa) {
    if (options_.spaPolicyOverride != "off") response.setHeader("Content-Security-Policy", spaPolicy(scheme, host));
  } else if (!response.header("Content-Security-Policy")) {
    response.setHeader("Content-Security-Policy", routePolicy());
  }
  response.setHeader("X-Frame-Options", "DENY");
  response.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  // A window of another site that opens ours gets no handle on it. Not plain same-origin:
  // that would also cut the New Project dialog off from the GitHub App installation
  // window it opens (it polls until that window closes, and a cut handle reads closed).
  response.setHeader("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  if (!hsts_.empty()) response.setHeader("Strict-Transport-Security", hsts_);
}

}  // namespace docs::core
