#pragma once
// The Pages service: how other plugins (projects, collab, generation) read and write pages
// (their documents are the Documents service's, documents_service.hpp).

#include <docs/context.hpp>
#include <docs/registry.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>

namespace docs_pages {

// Where a project's (or one page's) uploaded images live.
std::string imageDirectory(const docs::Context& context, std::int64_t projectId);
std::string imageDirectory(const docs::Context& context, std::int64_t projectId, std::int64_t pageId);

class PagesService final : public docs::Pages {
 public:
  // Declares the Projects service it requires (the project's default page).
  explicit PagesService(docs::Registry& registry);

  // The Projects service, for the routes too.
  docs::Projects& projects() const { return *projects_; }
  // Deletes a page with its subtree in one transaction: the project's default page moves
  // to the first root page if it was among them, image folders go after commit, and
  // page.deleted is published. Returns the deleted ids (empty: the page did not exist).
  std::vector<std::int64_t> removeTree(std::int64_t projectId, std::int64_t pageId);

  std::optional<docs::PageSummary> find(std::int64_t pageId) override;
  std::vector<docs::PageSummary> listProject(std::int64_t projectId) override;
  std::int64_t create(docs::Tx& tx, std::int64_t projectId, std::int64_t parentId, std::string_view name,
                      std::string_view type) override;
  bool remove(std::int64_t pageId) override;
  void removeProject(docs::Tx& tx, std::int64_t projectId) override;

 private:
  docs::Context& context_;
  docs::ServiceRef<docs::Projects> projects_;
};

}  // namespace docs_pages
