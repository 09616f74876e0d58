#pragma once
// The pages table. Tree changes take a per-project advisory lock, so two concurrent moves
// cannot build a cycle between them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <docs/db.hpp>
#include <docs/http.hpp>
#include <docs/services/pages.hpp>

namespace docs_pages {

inline constexpr std::size_t kMaxPageNameLength = 255;

std::optional<docs::PageSummary> findPage(docs::Db& db, std::int64_t id);
std::optional<docs::PageSummary> findPage(docs::Tx& tx, std::int64_t id);
std::vector<docs::PageSummary> listProjectPages(docs::Db& db, std::int64_t projectId);

void lockProjectTree(docs::Tx& tx, std::int64_t projectId);
// Appends the page after its last sibling.
docs::PageSummary insertPage(docs::Tx& tx, std::int64_t projectId, std::int64_t parentId, const std::string& name,
                             const std::string& type);
// Whether `candidate` lies in the subtree rooted at `root` (root included): moving root
// under candidate would make a cycle.
bool inSubtree(docs::Tx& tx, std::int64_t root, std::int64_t candidate);
void renamePage(docs::Tx& tx, std::int64_t id, const std::string& name);
void movePage(docs::Tx& tx, const docs::PageSummary& page, std::int64_t newParentId);
// Deletes the page and its whole subtree; returns every deleted id.
std::vector<std::int64_t> deleteSubtree(docs::Tx& tx, std::int64_t id);
std::vector<std::int64_t> deleteProjectPages(docs::Tx& tx, std::int64_t projectId);
// The first root page left, 0 if none.
std::int64_t firstRootPage(docs::Tx& tx, std::int64_t projectId);

docs::Json pageJson(const docs::PageSummary& page);
// Names are trimmed with whitespace collapsed; empty becomes "Untitled"; too long is a 400.
std::string validPageName(std::string_view raw);
// The same for names other plugins give (generated pages): too long is cut at 255
// characters instead of refused.
std::string fittedPageName(std::string_view raw);

}  // namespace docs_pages
