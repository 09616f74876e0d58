#include "page_store.hpp"

#include <docs/support/body_fields.hpp>

#include <stdexcept>

namespace docs_pages {

using namespace docs::support;

namespace {

constexpr const char* kColumns =
    "id, project_id, parent_id, name, type, position,"
    " created_at AT TIME ZONE 'UTC' AS created_at, updated_at AT TIME ZONE 'UTC' AS updated_at";

docs::PageSummary pageFrom(const docs::Row& row) {
  docs::PageSummary page;
  page.id = row.int64("id");
  page.projectId = row.int64("project_id");
  page.parentId = row.isNull("parent_id") ? 0 : row.int64("parent_id");
  page.name = row.text("name");
  page.type = row.text("type");
  page.position = row.int64("position");
  page.createdAt = isoTimestamp(row.text("created_at"));
  page.updatedAt = isoTimestamp(row.text("updated_at"));
  return page;
}

docs::Param parentParam(std::int64_t parentId) { return parentId > 0 ? docs::Param(parentId) : docs::Param(); }

std::vector<std::int64_t> idsOf(const docs::Result& rows) {
  std::vector<std::int64_t> ids;
  ids.reserve(rows.size());
  for (auto row : rows) ids.push_back(row.int64("id"));
  return ids;
}

}  // namespace

std::optional<docs::PageSummary> findPage(docs::Db& db, std::int64_t id) {
  auto rows = db.exec(std::string("SELECT ") + kColumns + " FROM pages WHERE id = $1", {id});
  if (rows.empty()) return std::nullopt;
  return pageFrom(rows[0]);
}

std::optional<docs::PageSummary> findPage(docs::Tx& tx, std::int64_t id) {
  auto rows = tx.exec(std::string("SELECT ") + kColumns + " FROM pages WHERE id = $1", {id});
  if (rows.empty()) return std::nullopt;
  return pageFrom(rows[0]);
}

std::vector<docs::PageSummary> listProjectPages(docs::Db& db, std::int64_t projectId) {
  auto rows = db.exec(std::string("SELECT ") + kColumns +
                          " FROM pages WHERE project_id = $1 ORDER BY parent_id NULLS FIRST, position, id",
                      {projectId});
  std::vector<docs::PageSummary> pages;
  pages.reserve(rows.size());
  for (auto row : rows) pages.push_back(pageFrom(row));
  return pages;
}

void lockProjectTree(docs::Tx& tx, std::int64_t projectId) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtextextended('docs.pages.tree:' || $1::text, 0))", {projectId});
}

docs::PageSummary insertPage(docs::Tx& tx, std::int64_t projectId, std::int64_t parentId, const std::string& name,
                             const std::string& type) {
  auto rows = tx.exec(std::string("INSERT INTO pages (project_id, parent_id, name, type, position)"
                                  " SELECT $1, $2, $3, $4, coalesce(max(position), 0) + 1 FROM pages"
                                  " WHERE project_id = $1 AND parent_id IS NOT DISTINCT FROM $2 RETURNING ") +
                          kColumns,
                      {projectId, parentParam(parentId), name, type});
  return pageFrom(rows[0]);
}

bool inSubtree(docs::Tx& tx, std::int64_t root, std::int64_t candidate) {
  // Walk up from the candidate: short, whatever the size of root's subtree.
  auto rows = tx.exec(
      "WITH RECURSIVE up(id, parent_id, depth) AS ("
      "  SELECT id, parent_id, 0 FROM pages WHERE id = $2"
      "  UNION ALL SELECT p.id, p.parent_id, up.depth + 1 FROM pages p JOIN up ON p.id = up.parent_id"
      "  WHERE up.depth < 100000)"
      " SELECT 1 FROM up WHERE id = $1 LIMIT 1",
      {root, candidate});
  return !rows.empty();
}

void renamePage(docs::Tx& tx, std::int64_t id, const std::string& name) {
  tx.exec("UPDATE pages SET name = $2, updated_at = now() WHERE id = $1", {id, name});
}

void movePage(docs::Tx& tx, const docs::PageSummary& page, std::int64_t newParentId) {
  if (page.parentId == newParentId) return;  // already there: keep its place among siblings
  tx.exec(
      "UPDATE pages SET parent_id = $2, updated_at = now(), position = (SELECT coalesce(max(position), 0) + 1"
      " FROM pages WHERE project_id = $3 AND parent_id IS NOT DISTINCT FROM $2) WHERE id = $1",
      {page.id, parentParam(newParentId), page.projectId});
}

std::vector<std::int64_t> deleteSubtree(docs::Tx& tx, std::int64_t id) {
  return idsOf(
      tx.exec("WITH RECURSIVE sub(id) AS (SELECT id FROM pages WHERE id = $1"
              "  UNION ALL SELECT p.id FROM pages p JOIN sub ON p.parent_id = sub.id)"
              " DELETE FROM pages WHERE id IN (SELECT id FROM sub) RETURNING id",
              {id}));
}

std::vector<std::int64_t> deleteProjectPages(docs::Tx& tx, std::int64_t projectId) {
  return idsOf(tx.exec("DELETE FROM pages WHERE project_id = $1 RETURNING id", {projectId}));
}

std::int64_t firstRootPage(docs::Tx& tx, std::int64_t projectId) {
  auto rows = tx.exec("SELECT id FROM pages WHERE project_id = $1 AND parent_id IS NULL ORDER BY position, id LIMIT 1",
                      {projectId});
  return rows.empty() ? 0 : rows[0].int64("id");
}

docs::Json pageJson(const docs::PageSummary& page) {
  return {{"id", page.id},
          {"project_id", page.projectId},
          {"parent_id", page.parentId},
          {"name", page.name},
          {"type", page.type},
          {"position", page.position},
          {"created_at", page.createdAt},
          {"updated_at", page.updatedAt}};
}

std::string fittedPageName(std::string_view raw) {
  std::string collapsed;
  std::size_t characters = 0;
  bool pendingSpace = false;
  for (char c : raw) {
    auto u = static_cast<unsigned char>(c);
    if (u <= ' ' || u == 0x7f) {
      pendingSpace = !collapsed.empty();
      continue;
    }
    bool startsCharacter = (u & 0xC0) != 0x80;
    if (startsCharacter && characters + (pendingSpace ? 1 : 0) >= kMaxPageNameLength) break;
    if (pendingSpace) {
      collapsed.push_back(' ');
      ++characters;
    }
    pendingSpace = false;
    if (startsCharacter) ++characters;
    collapsed.push_back(c);
  }
  return collapsed.empty() ? "Untitled" : collapsed;
}

std::string validPageName(std::string_view raw) {
  std::string name;
  bool pendingSpace = false;
  for (char c : raw) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) {
      pendingSpace = !name.empty();
      continue;
    }
    if (pendingSpace) name.push_back(' ');
    pendingSpace = false;
    name.push_back(c);
  }
  if (name.empty()) return "Untitled";
  if (codePoints(name) > kMaxPageNameLength)
    throw docs::HttpError::badRequest("Page name must be at most 255 characters", "invalid_field");
  return name;
}

}  // namespace docs_pages
