#include "project_store.hpp"

#include <docs/support/body_fields.hpp>

namespace docs_projects {

using namespace docs::support;

namespace {

constexpr const char* kColumns =
    "id, type, name, description, language, git_url, git_repository_id, github_node_id, installation_id, status,"
    " visibility, commit_hash, default_page_id, upload_path, rag_status, coalesce(created_by, 0) AS created_by,"
    " created_at AT TIME ZONE 'UTC' AS created_at, updated_at AT TIME ZONE 'UTC' AS updated_at";

std::optional<std::int64_t> optInt(const docs::Row& row, std::string_view column) {
  if (row.isNull(column)) return std::nullopt;
  return row.int64(column);
}

ProjectRow projectFrom(const docs::Row& row) {
  ProjectRow p;
  p.id = row.int64("id");
  p.type = row.text("type");
  p.name = row.text("name");
  p.description = row.text("description");
  p.language = row.text("language");
  p.gitUrl = row.optText("git_url");
  p.gitRepositoryId = optInt(row, "git_repository_id");
  p.githubNodeId = row.optText("github_node_id");
  p.installationId = optInt(row, "installation_id");
  p.status = row.text("status");
  p.visibility = row.text("visibility");
  p.commitHash = row.optText("commit_hash");
  p.defaultPageId = row.isNull("default_page_id") ? 0 : row.int64("default_page_id");
  p.uploadPath = row.optText("upload_path").value_or("");
  p.ragStatus = row.text("rag_status");
  p.createdBy = row.int64("created_by");
  p.createdAt = isoTimestamp(row.text("created_at"));
  p.updatedAt = isoTimestamp(row.text("updated_at"));
  return p;
}

template <class T>
docs::Json orNull(const std::optional<T>& value) {
  return value ? docs::Json(*value) : docs::Json();
}

}  // namespace

std::optional<ProjectRow> findProject(docs::Db& db, std::int64_t id) {
  auto rows = db.exec(std::string("SELECT ") + kColumns + " FROM projects WHERE id = $1", {id});
  if (rows.empty()) return std::nullopt;
  return projectFrom(rows[0]);
}

std::optional<ProjectRow> findProjectByGitUrl(docs::Db& db, const std::string& gitUrl) {
  auto rows = db.exec(std::string("SELECT ") + kColumns + " FROM projects WHERE lower(git_url) = lower($1)", {gitUrl});
  if (rows.empty()) return std::nullopt;
  return projectFrom(rows[0]);
}

std::vector<ProjectRow> findProjects(docs::Db& db, const std::vector<std::int64_t>& ids) {
  std::vector<ProjectRow> projects;
  if (ids.empty()) return projects;
  // The ids travel as one array literal parameter: one statement whatever their number.
  std::string array = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) array += (i ? "," : "") + std::to_string(ids[i]);
  array += "}";
  auto rows = db.exec(std::string("SELECT ") + kColumns + " FROM projects WHERE id = ANY($1::bigint[])", {array});
  projects.reserve(rows.size());
  for (auto row : rows) projects.push_back(projectFrom(row));
  return projects;
}

std::int64_t insertProject(docs::Tx& tx, const NewProject& project) {
  auto rows = tx.exec(
      "INSERT INTO projects (type, name, language, visibility, status, git_url, created_by)"
      " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
      {project.type, project.name, project.language, project.isPrivate ? "private" : "public", project.status,
       project.gitUrl, project.createdBy > 0 ? docs::Param(project.createdBy) : docs::Param()});
  return rows[0].int64("id");
}

void setDefaultPage(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId) {
  tx.exec("UPDATE projects SET default_page_id = $2, updated_at = now() WHERE id = $1",
          {projectId, pageId > 0 ? docs::Param(pageId) : docs::Param()});
}

void updateProject(docs::Db& db, std::int64_t id, const ProjectChanges& changes) {
  db.exec(
      "UPDATE projects SET name = coalesce($2, name), description = coalesce($3, description),"
      " visibility = coalesce($4, visibility), updated_at = now() WHERE id = $1",
      {id, changes.name, changes.description, changes.visibility});
}

bool updateStatus(docs::Db& db, std::int64_t id, std::string_view status) {
  return db.exec("UPDATE projects SET status = $2, updated_at = now() WHERE id = $1", {id, status}).affectedRows() > 0;
}

bool updateRagStatus(docs::Db& db, std::int64_t id, std::string_view ragStatus) {
  return db.exec("UPDATE projects SET rag_status = $2 WHERE id = $1", {id, ragStatus}).affectedRows() > 0;
}

bool updateCommitHash(docs::Db& db, std::int64_t id, std::string_view commitHash) {
  return db.exec("UPDATE projects SET commit_hash = $2, updated_at = now() WHERE id = $1", {id, commitHash})
             .affectedRows() > 0;
}

bool updateInstallation(docs::Db& db, std::int64_t id, std::int64_t installationId) {
  return db.exec("UPDATE projects SET installation_id = $2, updated_at = now() WHERE id = $1",
                 {id, installationId > 0 ? docs::Param(installationId) : docs::Param()})
             .affectedRows() > 0;
}

bool replaceInstallation(docs::Db& db, std::int64_t id, std::int64_t installationId, std::int64_t expectedId) {
  return db.exec(
               "UPDATE projects SET installation_id = $2, updated_at = now()"
               " WHERE id = $1 AND COALESCE(installation_id, 0) = $3",
               {id, installationId > 0 ? docs::Param(installationId) : docs::Param(), expectedId > 0 ? expectedId : 0})
             .affectedRows() > 0;
}

void recordUpload(docs::Db& db, std::int64_t id, const std::string& path, const std::string& fileName,
                  std::uint64_t size) {
  db.exec("UPDATE projects SET upload_path = $2, upload_name = $3, upload_size = $4, updated_at = now() WHERE id = $1",
          {id, path, fileName, static_cast<std::int64_t>(size)});
}

std::int64_t lockAndCountProjectsOf(docs::Tx& tx, std::int64_t userId) {
  tx.exec("SELECT pg_advisory_xact_lock(hashtext('projects-of-user'), $1::int)",
          {static_cast<std::int64_t>(userId & 0x7fffffff)});
  return tx.exec("SELECT count(*) AS n FROM projects WHERE created_by = $1", {userId})[0].int64("n");
}

std::uint64_t uploadBytesOf(docs::Db& db, std::int64_t userId, std::int64_t except) {
  auto rows =
      db.exec("SELECT coalesce(sum(upload_size), 0)::bigint AS n FROM projects WHERE created_by = $1 AND id <> $2",
              {userId, except});
  return static_cast<std::uint64_t>(rows[0].int64("n"));
}

std::int64_t creatorOf(docs::Db& db, std::int64_t projectId) {
  auto rows = db.exec("SELECT coalesce(created_by, 0) AS id FROM projects WHERE id = $1", {projectId});
  return rows.empty() ? 0 : rows[0].int64("id");
}

bool deleteProject(docs::Tx& tx, std::int64_t id) {
  return tx.exec("DELETE FROM projects WHERE id = $1", {id}).affectedRows() > 0;
}

docs::Json projectJson(const ProjectRow& p, std::string_view role) {
  return {
      {"id", p.id},
      {"type", p.type},
      {"name", p.name},
      {"description", p.description},
      {"language", p.language},
      {"git_url", orNull(p.gitUrl)},
      {"git_repository_id", orNull(p.gitRepositoryId)},
      {"github_node_id", orNull(p.githubNodeId)},
      {"installation_id", orNull(p.installationId)},
      {"status", p.status},
      {"visibility", p.visibility},
      {"commit_hash", orNull(p.commitHash)},
      {"rag_status", p.ragStatus},
      {"default_page_id", p.defaultPageId > 0 ? docs::Json(p.defaultPageId) : docs::Json()},
      {"role", role == "none" ? docs::Json() : docs::Json(role)},
      {"created_at", p.createdAt},
      {"updated_at", p.updatedAt},
  };
}

}  // namespace docs_projects
