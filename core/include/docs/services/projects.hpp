#pragma once
// Projects as other plugins see them. Implemented by the projects plugin.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <docs/project_status.hpp>

namespace docs {

class Tx;

struct ProjectSummary {
  std::int64_t id = 0;
  std::string type;  // github | user
  std::string name;
  std::string status;               // a ProjectStatus name (IDLE, ..., READY): parseProjectStatus reads it
  std::string visibility;           // private | public
  std::string language;             // en | ru | de
  std::int64_t defaultPageId = 0;   // 0: none
  std::string gitUrl;               // the repository's web address; "" for ZIP and empty projects
  std::string commitHash;           // the commit its documentation was written from; "" when none
  std::string ragStatus;            // active | idle
  std::int64_t installationId = 0;  // the GitHub App installation that reaches it; 0: none
  std::int64_t createdBy = 0;       // the user who created it; 0: unknown
  bool isPublic() const { return visibility == "public"; }
};

class Projects {
 public:
  static constexpr const char* kServiceId = "docs.projects/2";
  virtual ~Projects();

  virtual std::optional<ProjectSummary> find(std::int64_t projectId) = 0;
  // Returns false when the project does not exist (for example deleted meanwhile).
  virtual bool setStatus(std::int64_t projectId, ProjectStatus status) = 0;
  // 0 clears it. Inside the caller's transaction, so a page and its project stay consistent.
  virtual void setDefaultPage(Tx& tx, std::int64_t projectId, std::int64_t pageId) = 0;
  // Where a project's uploaded ZIP is stored, or "" when there is none.
  virtual std::string uploadedArchive(std::int64_t projectId) = 0;
  // Keeps the project from being deleted until tx ends (a shared row lock); false when it
  // no longer exists. For writes that add objects to a project.
  virtual bool holdProject(Tx& tx, std::int64_t projectId) = 0;
  // Projects in this status that have an uploaded archive, oldest first (at most `limit`):
  // what generation looks for after a crash lost the event of an upload.
  virtual std::vector<std::int64_t> uploadsInStatus(ProjectStatus status, int limit) = 0;
  // `active` once a search index of the project is complete, `idle` otherwise; anything
  // else is a programming error (std::invalid_argument). False when the project is gone.
  virtual bool setRagStatus(std::int64_t projectId, std::string_view ragStatus) = 0;
  // The commit the documentation now reflects. False when the project is gone.
  virtual bool setCommitHash(std::int64_t projectId, std::string_view commitHash) = 0;
  // The project of a repository (its web address, letter case ignored), if any.
  virtual std::optional<ProjectSummary> findByGitUrl(std::string_view gitUrl) = 0;
  // Ids of public projects, newest first (at most `limit`): what anyone may read.
  virtual std::vector<std::int64_t> publicProjectIds(int limit) = 0;
  // Records which GitHub App installation reaches the project (0: none any more).
  virtual bool setInstallation(std::int64_t projectId, std::int64_t installationId) = 0;
  // The same, only while the stored installation is still `expectedId` (0: none): whoever
  // read it, asked GitHub and writes back overwrites nothing a webhook stored meanwhile.
  // True when it wrote; false when the value had moved or the project is gone.
  virtual bool setInstallation(std::int64_t projectId, std::int64_t installationId, std::int64_t expectedId) = 0;
};

}  // namespace docs
