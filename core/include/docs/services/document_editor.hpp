#pragma once
// Server-side edits of page documents (generation rewriting a page on sync, imports).
// Implemented by the collab plugin: an edit goes through the page's open room when there
// is one, so connected editors see it live, and is stored durably either way.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docs {

class DocumentEditor {
 public:
  static constexpr const char* kServiceId = "docs.document_editor/1";
  virtual ~DocumentEditor();

  // Applies a Yjs v1 update to the page. False when the page does not exist; throws
  // std::invalid_argument when the update does not decode or does not apply.
  virtual bool applyUpdate(std::int64_t pageId, std::string_view update) = 0;
  // The page's current document (stored content and every accepted edit) as one
  // update, or nullopt when the page does not exist.
  virtual std::optional<std::string> currentState(std::int64_t pageId) = 0;
};

}  // namespace docs
