#include "history_service.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/logger.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <random>

#include "collab_server.hpp"
#include "collab_services.hpp"

namespace docs_collab {

using docs::Tx;

namespace {

std::span<const std::uint8_t> bytesOf(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::uint64_t restoreClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

}  // namespace

std::optional<std::int64_t> HistoryService::snapshot(std::int64_t pageId, std::string_view label) {
  return take(pageId, label, label.empty() ? "edit" : "labelled");
}

std::optional<std::int64_t> HistoryService::take(std::int64_t pageId, std::string_view label, std::string_view kind) {
  auto& pages = *services_.pages;
  if (!pages.find(pageId)) return std::nullopt;
  server_.flush(pageId);
  std::optional<std::int64_t> id;
  context_.db().transaction([&](Tx& tx) {
    // The page's lock: no fold changes content or pending authors meanwhile.
    auto state = services_.documents->lockStored(tx, pageId);
    if (!state) return;  // the page is gone
    id = server_.history().snapshot(tx, pageId, *state, label, kind);
  });
  return id;
}

void HistoryService::takeDueSnapshots() {
  for (auto pageId : server_.history().duePages(settings_.idleSeconds, settings_.maxIntervalSeconds, 200)) {
    try {
      if (!take(pageId, "", "edit")) server_.history().removePage(pageId);  // the page is gone
    } catch (const std::exception& error) {
      context_.logger().error("history snapshot failed", {{"page_id", pageId}, {"error", error.what()}});
    }
  }
}

void HistoryService::thin() {
  auto& pages = *services_.pages;
  int dropped = 0;
  for (auto pageId : server_.history().pagesToThin(1000)) {
    try {
      if (!pages.find(pageId)) {
        server_.history().removePage(pageId);
        continue;
      }
      dropped += server_.history().thinPage(pageId);
    } catch (const std::exception& error) {
      context_.logger().error("history thinning failed", {{"page_id", pageId}, {"error", error.what()}});
    }
  }
  if (dropped > 0) context_.logger().info("history thinned", {{"versions_dropped", dropped}});
}

std::optional<std::int64_t> HistoryService::restore(std::int64_t pageId, std::int64_t versionId,
                                                    std::optional<std::int64_t> userId) {
  auto target = server_.history().state(pageId, versionId);
  if (!target) return std::nullopt;
  docs::ydoc::Doc version;
  version.applyUpdate(bytesOf(*target));
  auto wanted = docs::ydoc::toProseMirrorJson(version);
  // The change that turns the current document into the version's content, made on
  // the current document so that it applies on top of everything. The same current
  // document is recorded first as a labelled version: what the restore removes can be
  // restored again, and edits made meanwhile merge with it as any concurrent edit does.
  auto current = server_.currentState(pageId);
  if (!current) return std::nullopt;
  std::int64_t before = 0;
  context_.db().transaction([&](Tx& tx) {
    if (!services_.documents->lockStored(tx, pageId)) return;
    before = server_.history().snapshot(tx, pageId, *current, "Before restoring version " + std::to_string(versionId),
                                        "restore");
  });
  docs::ydoc::Doc doc(restoreClientId());
  doc.applyUpdate(bytesOf(*current));
  auto stateVector = doc.encodeStateVector();
  docs::ydoc::applyProseMirrorJson(doc, wanted);
  auto update = doc.encodeStateAsUpdate(stateVector);
  if (!server_.applyUpdateAs(pageId, std::string_view(reinterpret_cast<const char*>(update.data()), update.size()),
                             userId))
    return std::nullopt;
  return before;
}

}  // namespace docs_collab
