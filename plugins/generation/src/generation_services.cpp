#include "generation_services.hpp"

namespace docs_generation {

using docs::Registry;

void GenerationServices::declare(Registry& registry) {
  registry.require(projects);
  registry.require(pages);
  registry.require(documents);
  registry.require(access);
  registry.use(github);
  // Without collab no version is labelled.
  registry.use(history);
}

}  // namespace docs_generation
