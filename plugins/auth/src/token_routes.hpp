#pragma once
// /api/tokens: a signed-in person creates, lists and revokes their personal access tokens.

#include <functional>

namespace docs {
class Registry;
}

namespace docs::auth {

class AuthCore;

void registerTokenRoutes(Registry& registry, std::function<AuthCore&()> core);

}  // namespace docs::auth
