#pragma once
// How the sign-in routes (/api/auth/*) describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs::auth {

RouteDoc getSessionDoc();
RouteDoc tokenDoc();
RouteDoc jwksDoc();
RouteDoc signOutDoc();
RouteDoc deletionCodeDoc();
RouteDoc deleteUserDoc();
RouteDoc sendCodeDoc();
RouteDoc signInWithCodeDoc();
RouteDoc signInWithLinkDoc();
RouteDoc socialSignInDoc();
RouteDoc githubCallbackDoc();

}  // namespace docs::auth
