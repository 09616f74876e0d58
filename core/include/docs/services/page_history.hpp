#pragma once
// Versions of page documents (page history). Implemented by the collab plugin, which
// owns the update log the versions are cut from. Other plugins label the moments they
// rewrite a page (generation before and after it writes), so a reader can go back.

#include <cstdint>
#include <optional>
#include <string_view>

namespace docs {

class PageHistory {
 public:
  static constexpr const char* kServiceId = "docs.page_history/1";
  virtual ~PageHistory();

  // Records the page's current document as a version labelled `label` (kept by the
  // thinning). When it equals the newest version, that one takes the label instead (if
  // it has none) and no row is added. Returns the version's id, nullopt when the page
  // does not exist.
  virtual std::optional<std::int64_t> snapshot(std::int64_t pageId, std::string_view label) = 0;
};

}  // namespace docs
