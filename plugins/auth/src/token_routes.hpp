#pragma once
// /api/tokens: a signed-in person creates, lists and revokes their personal access tokens.

namespace docs {
class Registry;
}

namespace docs_auth {

class AuthCore;

// The handlers keep `core`: the plugin owns it for good.
void addTokenRoutes(docs::Registry& registry, AuthCore& core);

}  // namespace docs_auth
