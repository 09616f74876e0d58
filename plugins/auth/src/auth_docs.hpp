#pragma once
// How the sign-in routes (/api/auth/*) describe themselves in GET /api/openapi.json.

#include <docs/route_doc.hpp>

namespace docs_auth {

docs::RouteDoc getSessionDoc();
docs::RouteDoc tokenDoc();
docs::RouteDoc jwksDoc();
docs::RouteDoc signOutDoc();
docs::RouteDoc deletionCodeDoc();
docs::RouteDoc deleteUserDoc();
docs::RouteDoc sendCodeDoc();
docs::RouteDoc signInWithCodeDoc();
docs::RouteDoc signInWithLinkDoc();
docs::RouteDoc socialSignInDoc();
docs::RouteDoc githubCallbackDoc();

}  // namespace docs_auth
