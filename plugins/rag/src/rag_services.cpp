#include "rag_services.hpp"

namespace docs_rag {

using docs::Registry;

void RagServices::declare(Registry& registry) {
  registry.require(projects);
  registry.require(pages);
  registry.require(documents);
  registry.require(access);
  registry.use(analysis);
}

}  // namespace docs_rag
