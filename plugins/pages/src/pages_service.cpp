#include "pages_service.hpp"

#include <filesystem>
#include <stdexcept>

#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/services/projects.hpp>
#include <docs/topics.hpp>

#include <algorithm>

#include "document_store.hpp"
#include "page_store.hpp"

namespace docs_pages {

PagesService::PagesService(docs::Registry& registry) : context_(registry.context()) { registry.require(projects_); }

std::vector<std::int64_t> PagesService::removeTree(std::int64_t projectId, std::int64_t pageId) {
  auto& projects = *projects_;
  auto project = projects.find(projectId);
  std::vector<std::int64_t> deleted;
  context_.db().transaction([&](docs::Tx& tx) {
    lockProjectTree(tx, projectId);
    deleted = deleteSubtree(tx, pageId);
    if (deleted.empty()) return;
    deleteLogOfPages(tx, deleted);
    bool defaultGone = project && std::find(deleted.begin(), deleted.end(), project->defaultPageId) != deleted.end();
    if (defaultGone) projects.setDefaultPage(tx, projectId, firstRootPage(tx, projectId));
    std::vector<std::string> directories;
    for (auto id : deleted) directories.push_back(imageDirectory(context_, projectId, id));
    tx.afterCommit([directories] {
      std::error_code ignored;
      for (const auto& directory : directories) std::filesystem::remove_all(directory, ignored);
    });
    docs::publishAfterCommit(context_.events(), tx, docs::kPageDeleted, {projectId, deleted});
  });
  return deleted;
}

bool PagesService::remove(std::int64_t pageId) {
  auto page = find(pageId);
  return page && !removeTree(page->projectId, pageId).empty();
}

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

void PagesService::removeProject(docs::Tx& tx, std::int64_t projectId) {
  // Waits for a page being created in this project to commit, so none is left behind
  // (creation takes the same lock, then holds the project row).
  lockProjectTree(tx, projectId);
  deleteLogOfPages(tx, deleteProjectPages(tx, projectId));
  std::string directory = imageDirectory(context_, projectId);
  tx.afterCommit([directory] {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  });
}

}  // namespace docs_pages
