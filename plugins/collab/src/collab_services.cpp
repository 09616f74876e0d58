#include "collab_services.hpp"

namespace docs_collab {

using docs::Registry;

CollabServices::CollabServices(Registry& registry) {
  registry.require(pages);
  registry.require(documents);
  registry.require(access);
  registry.require(authenticator);
}

}  // namespace docs_collab
