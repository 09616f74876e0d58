#pragma once
// The comment routes (docs/api.md, "Comments"): threads on a page, replies, edits,
// resolution and deletion, each checked against the caller's role in the page's project.

#include <docs/registry.hpp>

namespace docs_comments {

// Declares the routes, the config keys and the services they need (from configure()).
void addCommentRoutes(docs::Registry& registry);

}  // namespace docs_comments
