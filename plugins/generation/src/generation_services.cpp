#include "generation_services.hpp"

namespace docs_generation {

using docs::Registry;

void GenerationServices::declare(Registry& registry) {
  registry.require(projects);
  registry.require(pages);
  registry.require(access);
  registry.use(github);
  // Without collab, pages are written to the stored document and no version is labelled.
  registry.use(editor);
  registry.use(history);
}

}  // namespace docs_generation
