#include "pages_service.hpp"

#include <filesystem>
#include <stdexcept>

#include <docs/db.hpp>

#include "page_store.hpp"

namespace docs_pages {

std::string imageDirectory(const docs::Context& context, std::int64_t projectId) {
  return context.dataDir() + "/images/" + std::to_string(projectId);
}

std::string imageDirectory(const docs::Context& context, std::int64_t projectId, std::int64_t pageId) {
  return imageDirectory(context, projectId) + "/" + std::to_string(pageId);
}

std::optional<docs::PageSummary> PagesService::find(std::int64_t pageId) { return findPage(context_.db(), pageId); }

std::vector<docs::PageSummary> PagesService::listProject(std::int64_t projectId) {
  return listProjectPages(context_.db(), projectId);
}

std::int64_t PagesService::create(docs::Tx& tx, std::int64_t projectId, std::int64_t parentId, std::string_view name,
                                  std::string_view type) {
  if (type != "file" && type != "generated") throw std::invalid_argument("page type must be file or generated");
  lockProjectTree(tx, projectId);
  if (parentId > 0) {
    auto parent = findPage(tx, parentId);
    if (!parent || parent->projectId != projectId) throw std::invalid_argument("parent page is not in the project");
  }
  return insertPage(tx, projectId, parentId, fittedPageName(name), std::string(type)).id;
}

std::optional<std::string> PagesService::content(std::int64_t pageId) { return contentBytes(context_.db(), pageId); }

bool PagesService::setContent(std::int64_t pageId, std::string_view bytes) {
  return storeContent(context_.db(), pageId, std::string(bytes));
}

void PagesService::removeProject(docs::Tx& tx, std::int64_t projectId) {
  // Waits for a page being created in this project to commit, so none is left behind
  // (creation takes the same lock, then holds the project row).
  lockProjectTree(tx, projectId);
  deleteProjectPages(tx, projectId);
  std::string directory = imageDirectory(context_, projectId);
  tx.afterCommit([directory] {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  });
}

}  // namespace docs_pages
