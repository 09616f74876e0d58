#pragma once
// The Pages calls: create, get, rename/move, delete, content, export and images.

#include <memory>

#include <docs/registry.hpp>

namespace docs_pages {

class DocumentsService;
class PagesService;
class PageRoutes;

// Declares the configuration keys, the routes and the services they require and use.
// Keep the result for good: the host fills the service refs it holds.
std::shared_ptr<PageRoutes> addPageRoutes(docs::Registry& registry, PagesService& pages, DocumentsService& documents);

}  // namespace docs_pages
