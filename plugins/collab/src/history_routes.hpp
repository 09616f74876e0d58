#pragma once
// The page history routes: list, read (json|md|html), diff and restore. Every call
// authorizes the page as a content read does (a stranger's private page is a 404);
// restore needs write access.

namespace docs {
class Registry;
}

namespace docs::collab {

class HistoryService;
class CollabServer;
struct CollabServices;

void addHistoryRoutes(Registry& registry, HistoryService& history, CollabServer& server,
                      const CollabServices& services);

}  // namespace docs::collab
