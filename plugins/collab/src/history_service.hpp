#pragma once
// Page history: versions cut from the compacted log (when editing pauses, at most every
// max interval while it goes on, when asked with a label), restore as a new change on
// top, and thinning. Implements the PageHistory service.

#include <docs/services/page_history.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace docs {
class Context;
}

namespace docs_collab {

class CollabServer;
struct CollabServices;

struct HistorySettings {
  std::int64_t idleSeconds = 60;
  std::int64_t maxIntervalSeconds = 600;
};

class HistoryService final : public docs::PageHistory {
 public:
  // Built in configure() (it does nothing until asked).
  HistoryService(docs::Context& context, CollabServer& server, const CollabServices& services, HistorySettings settings)
      : context_(context), server_(server), services_(services), settings_(settings) {}

  std::optional<std::int64_t> snapshot(std::int64_t pageId, std::string_view label) override;
  // A version of the page's stored content with its pending authors; nullopt when the
  // page does not exist. Folds the page's open room first.
  std::optional<std::int64_t> take(std::int64_t pageId, std::string_view label, std::string_view kind);
  // The periodic task: versions of pages whose editing paused or went on long enough.
  void takeDueSnapshots();
  // The periodic task: thinning (thinning.hpp) of pages with versions older than a day.
  void thin();
  // Makes the page's document equal to the version's, as a new change by `userId` on
  // top of the current one (through the open room: every editor sees it). A labelled
  // version of the current document is taken first, so the restore can be undone.
  // Returns the id of that version; nullopt when the page or version does not exist.
  std::optional<std::int64_t> restore(std::int64_t pageId, std::int64_t versionId, std::optional<std::int64_t> userId);

 private:
  docs::Context& context_;
  CollabServer& server_;
  const CollabServices& services_;
  HistorySettings settings_;
};

}  // namespace docs_collab
