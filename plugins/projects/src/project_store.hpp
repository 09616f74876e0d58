#pragma once
// The projects table.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <docs/db.hpp>
#include <docs/http.hpp>

namespace docs_projects {

struct ProjectRow {
  std::int64_t id = 0;
  std::string type;
  std::string name;
  std::string description;
  std::string language;
  std::optional<std::string> gitUrl;
  std::optional<std::int64_t> gitRepositoryId;
  std::optional<std::string> githubNodeId;
  std::optional<std::int64_t> installationId;
  std::string status;
  std::string visibility;
  std::optional<std::string> commitHash;
  std::int64_t defaultPageId = 0;
  std::string uploadPath;
  std::string ragStatus = "idle";
  std::int64_t createdBy = 0;  // 0: unknown (an account since deleted)
  std::string createdAt;
  std::string updatedAt;
  bool isPublic() const { return visibility == "public"; }
};

struct NewProject {
  std::string type;
  std::string name;
  std::string language;
  bool isPrivate = true;
  std::string status;
  std::optional<std::string> gitUrl;
  std::int64_t createdBy = 0;
};

std::optional<ProjectRow> findProject(docs::Db& db, std::int64_t id);
std::optional<ProjectRow> findProjectByGitUrl(docs::Db& db, const std::string& gitUrl);
// One query for any number of ids.
std::vector<ProjectRow> findProjects(docs::Db& db, const std::vector<std::int64_t>& ids);
// Throws DbError (unique violation) when the repository already has a project.
std::int64_t insertProject(docs::Tx& tx, const NewProject& project);
void setDefaultPage(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId);

struct ProjectChanges {
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<std::string> visibility;
};
void updateProject(docs::Db& db, std::int64_t id, const ProjectChanges& changes);
bool updateStatus(docs::Db& db, std::int64_t id, std::string_view status);
bool updateRagStatus(docs::Db& db, std::int64_t id, std::string_view ragStatus);
bool updateCommitHash(docs::Db& db, std::int64_t id, std::string_view commitHash);
bool updateInstallation(docs::Db& db, std::int64_t id, std::int64_t installationId);
// updateInstallation only while the stored installation is expectedId (0: none); one
// statement, so a concurrent write between a caller's read and this one is never lost.
bool replaceInstallation(docs::Db& db, std::int64_t id, std::int64_t installationId, std::int64_t expectedId);
void recordUpload(docs::Db& db, std::int64_t id, const std::string& path, const std::string& fileName,
                  std::uint64_t size);
// False when the row was already gone.
bool deleteProject(docs::Tx& tx, std::int64_t id);
// Quotas: the projects a user created (counted under a lock on the user, so two creates
// at once cannot both pass), and the bytes of the uploads those projects hold besides
// `except`.
std::int64_t lockAndCountProjectsOf(docs::Tx& tx, std::int64_t userId);
std::uint64_t uploadBytesOf(docs::Db& db, std::int64_t userId, std::int64_t except);
std::int64_t creatorOf(docs::Db& db, std::int64_t projectId);

// The response shape of a project ("role" is the caller's effective role, or null).
docs::Json projectJson(const ProjectRow& project, std::string_view role);

}  // namespace docs_projects
