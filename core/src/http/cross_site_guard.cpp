#include "cross_site_guard.hpp"

#include <cctype>

namespace docs::core {

std::string mediaType(const std::string& contentType) {
  std::string type = contentType.substr(0, contentType.find(';'));
  std::string out;
  for (char c : type)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

void refuseCrossSite(const AmbientRequest& request) {
  bool unsafe = request.method == Method::Post || request.method == Method::Put || request.method == Method::Patch ||
                request.method == Method::Delete;
  if (!unsafe || request.hasAuthorization) return;
  // Browsers send Origin on every cross-origin unsafe request ("null" from sandboxes and
  // some redirects); Sec-Fetch-Site where they support it.
  if (!request.origin.empty() && !request.originAllowed)
    throw HttpError(403, "cross_site", "Requests from " + request.origin + " are not accepted");
  if (request.origin.empty() && !request.secFetchSite.empty() && request.secFetchSite != "same-origin" &&
      request.secFetchSite != "none")
    throw HttpError(403, "cross_site", "Cross-site requests are not accepted");
  if (!request.hasBody) return;
  std::string type = mediaType(request.contentType);
  bool json = type == "application/json" || (type.starts_with("application/") && type.ends_with("+json"));
  if (request.uploadRoute) {
    // Uploads take their own types (multipart, image/png, ...); of the types a form or a
    // no-CORS fetch can send, only multipart is an upload.
    if (type == "text/plain" || type == "application/x-www-form-urlencoded")
      throw HttpError(415, "unsupported_media_type", "Send the file as multipart/form-data or with its own type");
    return;
  }
  if (!json) throw HttpError(415, "unsupported_media_type", "Send the body as application/json");
}

}  // namespace docs::core
