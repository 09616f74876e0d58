#pragma once
// The page history routes: list, read (json|md|html), diff and restore. Every call
// authorizes the page as a content read does (a stranger's private page is a 404);
// restore needs write access.

namespace docs {
class Registry;
}

namespace docs_collab {

class HistoryService;
class CollabServer;
struct CollabServices;

// Declares the routes; `history` restores, `server` holds the documents and `services`
// finds the page and checks the caller, all kept by the plugin for good.
void addHistoryRoutes(docs::Registry& registry, HistoryService& history, CollabServer& server,
                      const CollabServices& services);

}  // namespace docs_collab
