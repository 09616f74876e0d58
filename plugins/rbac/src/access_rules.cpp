#include "access_rules.hpp"

#include <string>

namespace docs_rbac {

docs::Role effectiveRole(bool projectIsPublic, docs::Role granted) {
  if (projectIsPublic && granted < docs::Role::Read) return docs::Role::Read;
  return granted;
}

int deniedStatus(bool projectExists, bool projectIsPublic, bool signedIn, docs::Role granted, docs::Role needed) {
  if (!projectExists) return 404;
  docs::Role role = effectiveRole(projectIsPublic, signedIn ? granted : docs::Role::None);
  if (role >= needed) return 0;
  if (role == docs::Role::None) return 404;
  return signedIn ? 403 : 401;
}

void throwIfDenied(int status, docs::Role needed) {
  switch (status) {
    case 0: return;
    case 401: throw docs::HttpError::unauthorized();
    case 403:
      throw docs::HttpError::forbidden("This needs the " + std::string(docs::roleName(needed)) +
                                       " role in the project");
    default: throw docs::HttpError::notFound("Project not found");
  }
}

}  // namespace docs_rbac
