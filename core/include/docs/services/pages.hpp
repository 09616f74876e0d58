#pragma once
// Pages as other plugins see them. Implemented by the pages plugin, which owns the
// `pages` table; a page's document (content and log) is the Documents service's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs {

class Tx;

struct PageSummary {
  std::int64_t id = 0;
  std::int64_t projectId = 0;
  std::int64_t parentId = 0;  // 0: a root page
  std::string name;
  std::string type;           // file | generated
  std::int64_t position = 0;  // order among siblings
  std::string createdAt;      // ISO 8601, UTC
  std::string updatedAt;
};

class Pages {
 public:
  static constexpr const char* kServiceId = "docs.pages/2";
  virtual ~Pages();

  virtual std::optional<PageSummary> find(std::int64_t pageId) = 0;
  // Every page of a project, siblings in their stable order, without content (one query).
  virtual std::vector<PageSummary> listProject(std::int64_t projectId) = 0;
  // Creates a page last among its siblings; parentId 0 makes a root page. Returns its id.
  // A type other than file/generated or a parent outside the project is a programming
  // error (std::invalid_argument); the name is trimmed, empty becomes "Untitled", longer than
  // 255 characters is cut.
  virtual std::int64_t create(Tx& tx, std::int64_t projectId, std::int64_t parentId, std::string_view name,
                              std::string_view type) = 0;
  // Deletes a page and the pages under it, publishing page.deleted; false when it does
  // not exist. For server-side removals (a file deleted from a repository).
  virtual bool remove(std::int64_t pageId) = 0;
  // Deletes every page of a project inside the deleting transaction (files after commit).
  virtual void removeProject(Tx& tx, std::int64_t projectId) = 0;
};

}  // namespace docs
