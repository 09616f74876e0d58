#pragma once
// The /api/auth/* routes (Better Auth's paths and shapes, which the SPA speaks).

#include <optional>
#include <string>
#include <vector>

namespace docs {
class Registry;
class Request;
}  // namespace docs

namespace docs_auth {

class AuthCore;

// The handlers keep `core`: the plugin owns it for good.
void addAuthRoutes(docs::Registry& registry, AuthCore& core);

// Where a sign-in may send the browser afterwards: a same-site path, or an absolute
// http(s) URL on one of the deployment's origins (server.public_url,
// server.allowed_origins, or the origin the request came to). nullopt otherwise.
std::optional<std::string> allowedRedirect(const std::string& url, const std::string& requestOrigin,
                                           const std::string& publicUrl,
                                           const std::vector<std::string>& allowedOrigins);

}  // namespace docs_auth
