#include "projects_service.hpp"

#include <stdexcept>
#include <string>

#include <docs/db.hpp>

#include "project_rules.hpp"
#include "project_store.hpp"

namespace docs_projects {

namespace {

docs::ProjectSummary summaryOf(const ProjectRow* row) {
  docs::ProjectSummary summary;
  summary.id = row->id;
  summary.type = row->type;
  summary.name = row->name;
  summary.status = row->status;
  summary.visibility = row->visibility;
  summary.language = row->language;
  summary.defaultPageId = row->defaultPageId;
  summary.gitUrl = row->gitUrl.value_or("");
  summary.commitHash = row->commitHash.value_or("");
  summary.ragStatus = row->ragStatus;
  summary.installationId = row->installationId.value_or(0);
  summary.createdBy = row->createdBy;
  return summary;
}

}  // namespace

std::optional<docs::ProjectSummary> ProjectsService::find(std::int64_t projectId) {
  auto row = findProject(context_.db(), projectId);
  if (!row) return std::nullopt;
  return summaryOf(&*row);
}

std::optional<docs::ProjectSummary> ProjectsService::findByGitUrl(std::string_view gitUrl) {
  auto row = findProjectByGitUrl(context_.db(), std::string(gitUrl));
  if (!row) return std::nullopt;
  return summaryOf(&*row);
}

bool ProjectsService::setRagStatus(std::int64_t projectId, std::string_view ragStatus) {
  if (ragStatus != "active" && ragStatus != "idle")
    throw std::invalid_argument("unknown rag status: " + std::string(ragStatus));
  return updateRagStatus(context_.db(), projectId, ragStatus);
}

bool ProjectsService::setCommitHash(std::int64_t projectId, std::string_view commitHash) {
  return updateCommitHash(context_.db(), projectId, commitHash);
}

std::vector<std::int64_t> ProjectsService::publicProjectIds(int limit) {
  std::vector<std::int64_t> ids;
  for (auto row : context_.db().exec("SELECT id FROM projects WHERE visibility = 'public' ORDER BY id DESC LIMIT $1",
                                     {static_cast<std::int64_t>(limit)}))
    ids.push_back(row.int64("id"));
  return ids;
}

bool ProjectsService::setInstallation(std::int64_t projectId, std::int64_t installationId) {
  return updateInstallation(context_.db(), projectId, installationId);
}

bool ProjectsService::setInstallation(std::int64_t projectId, std::int64_t installationId, std::int64_t expectedId) {
  return replaceInstallation(context_.db(), projectId, installationId, expectedId);
}

bool ProjectsService::setStatus(std::int64_t projectId, docs::ProjectStatus status) {
  return updateStatus(context_.db(), projectId, docs::toString(status));
}

void ProjectsService::setDefaultPage(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId) {
  docs_projects::setDefaultPage(tx, projectId, pageId);
}

std::string ProjectsService::uploadedArchive(std::int64_t projectId) {
  auto row = findProject(context_.db(), projectId);
  return row ? row->uploadPath : std::string();
}

bool ProjectsService::holdProject(docs::Tx& tx, std::int64_t projectId) {
  // KEY SHARE conflicts with DELETE only, not with status or name updates.
  return !tx.exec("SELECT 1 FROM projects WHERE id = $1 FOR KEY SHARE", {projectId}).empty();
}

std::vector<std::int64_t> ProjectsService::uploadsInStatus(docs::ProjectStatus status, int limit) {
  std::vector<std::int64_t> ids;
  for (auto row : context_.db().exec("SELECT id FROM projects WHERE status = $1 AND upload_path IS NOT NULL"
                                     " AND upload_path <> '' ORDER BY updated_at, id LIMIT $2",
                                     {std::string(docs::toString(status)), static_cast<std::int64_t>(limit)}))
    ids.push_back(row.int64("id"));
  return ids;
}

}  // namespace docs_projects
