#pragma once
// The access decision itself, free of I/O so it can be tested exhaustively.

#include <docs/services/access_control.hpp>

namespace docs_rbac {

// A public project gives everyone read access on top of what they were granted.
docs::Role effectiveRole(bool projectIsPublic, docs::Role granted);

// 0 when allowed; otherwise the status to answer: 404 when the project does not exist or
// the caller may not read it (a private project's existence does not leak), 401 when an
// anonymous caller needs more, 403 when a signed-in caller needs more.
int deniedStatus(bool projectExists, bool projectIsPublic, bool signedIn, docs::Role granted, docs::Role needed);

// Throws the HttpError for deniedStatus, or returns when it is 0.
void throwIfDenied(int status, docs::Role needed);

}  // namespace docs_rbac
