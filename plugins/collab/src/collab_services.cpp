#include "collab_services.hpp"

namespace docs::collab {

CollabServices::CollabServices(Registry& registry) {
  registry.require(pages);
  registry.require(documents);
  registry.require(access);
  registry.require(authenticator);
}

}  // namespace docs::collab
