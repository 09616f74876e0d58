#include "rag_services.hpp"

namespace docs::rag {

void RagServices::declare(Registry& registry) {
  registry.require(projects);
  registry.require(pages);
  registry.require(documents);
  registry.require(access);
  registry.use(analysis);
}

}  // namespace docs::rag
