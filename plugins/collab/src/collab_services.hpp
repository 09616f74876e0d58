#pragma once
// The other plugins' services collab needs, declared in configure() and filled by the
// host before any start(). Owned by the plugin; the server, the history and its routes
// hold a reference.

#include <docs/registry.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/authenticator.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/pages.hpp>

namespace docs_collab {

struct CollabServices {
  // Requires all four: collab depends on auth, rbac and pages, and without any of them no
  // socket could authenticate, be authorized or load and store its page's document.
  explicit CollabServices(docs::Registry& registry);

  docs::ServiceRef<docs::Pages> pages;
  docs::ServiceRef<docs::Documents> documents;
  docs::ServiceRef<docs::AccessControl> access;
  docs::ServiceRef<docs::Authenticator> authenticator;
};

}  // namespace docs_collab
