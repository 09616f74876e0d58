#pragma once
// The Projects service other plugins use (generation sets statuses, pages keeps the
// default page valid).

#include <docs/context.hpp>
#include <docs/services/projects.hpp>

namespace docs_projects {

class ProjectsService final : public docs::Projects {
 public:
  explicit ProjectsService(docs::Context& context) : context_(context) {}
  std::optional<docs::ProjectSummary> find(std::int64_t projectId) override;
  bool setStatus(std::int64_t projectId, docs::ProjectStatus status) override;
  void setDefaultPage(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId) override;
  std::string uploadedArchive(std::int64_t projectId) override;
  bool holdProject(docs::Tx& tx, std::int64_t projectId) override;
  std::vector<std::int64_t> uploadsInStatus(docs::ProjectStatus status, int limit) override;
  bool setRagStatus(std::int64_t projectId, std::string_view ragStatus) override;
  bool setCommitHash(std::int64_t projectId, std::string_view commitHash) override;
  std::optional<docs::ProjectSummary> findByGitUrl(std::string_view gitUrl) override;
  bool setInstallation(std::int64_t projectId, std::int64_t installationId) override;
  bool setInstallation(std::int64_t projectId, std::int64_t installationId, std::int64_t expectedId) override;
  std::vector<std::int64_t> publicProjectIds(int limit) override;

 private:
  docs::Context& context_;
};

}  // namespace docs_projects
