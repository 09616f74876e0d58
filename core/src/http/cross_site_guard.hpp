#pragma once
// Refuses what another site can make a browser send with our cookies: an unsafe request
// (POST, PUT, PATCH, DELETE) without an Authorization header whose Origin is not ours, or
// that Sec-Fetch-Site marks as coming from elsewhere, or whose body is not JSON on a route
// that reads JSON (a form or a no-CORS fetch sends text/plain, form-urlencoded or
// multipart; anything else needs a CORS preflight we refuse), or is text/plain or
// form-urlencoded on an upload route. A request carrying a bearer token is never ambient: browsers do not add
// that header on their own, and another origin cannot without our CORS approval.

#include <string>

#include "docs/http.hpp"

namespace docs::core {

struct AmbientRequest {
  Method method = Method::Get;
  bool hasAuthorization = false;
  std::string origin;          // empty when absent
  bool originAllowed = false;  // ours or in server.allowed_origins
  std::string secFetchSite;    // empty when absent (older browsers, non-browser clients)
  std::string contentType;     // empty when absent
  bool hasBody = false;
  bool uploadRoute = false;  // the route streams its body (multipart or raw uploads)
};

// Throws HttpError 403 `cross_site` for a request from another site, 415
// `unsupported_media_type` for a body type the route does not take from ambient callers.
void refuseCrossSite(const AmbientRequest& request);

// "Application/JSON; charset=utf-8" -> "application/json".
std::string mediaType(const std::string& contentType);

}  // namespace docs::core
