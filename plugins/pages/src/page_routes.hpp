#pragma once
// The Pages calls: create, get, rename/move, delete, content, export and images.

#include <functional>

#include <docs/registry.hpp>

namespace docs_pages {

// Declares the routes and configuration keys; call the returned function from start()
// (it reads the configuration).
std::function<void()> addPageRoutes(docs::Registry& registry);

}  // namespace docs_pages
