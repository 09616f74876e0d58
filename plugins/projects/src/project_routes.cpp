#include "project_routes.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <tuple>
#include <unordered_map>

#include <docs/config.hpp>
#include <docs/config_keys.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/project_status.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/github_access.hpp>
#include <docs/services/pages.hpp>
#include <docs/topics.hpp>

#include <docs/support/body_fields.hpp>
#include <docs/support/upload_file.hpp>
#include "json_writer.hpp"
#include "multipart_reader.hpp"
#include "project_docs.hpp"
#include "project_rules.hpp"
#include "project_store.hpp"

namespace docs_projects {

using namespace docs::support;

using docs::HttpError;
using docs::Json;
using docs::Role;

namespace {

constexpr std::size_t kSmallBody = 64 * 1024;
// The ZIP limit plus room for the multipart framing around it.
constexpr std::size_t kZipRouteLimit = kMaxZipBytes + 64 * 1024;

bool isZip(const PartHeaders& part) {
  std::string fileName = part.fileName.value_or("");
  for (char& c : fileName)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  bool zipName = fileName.size() > 4 && fileName.compare(fileName.size() - 4, 4, ".zip") == 0;
  const std::string& type = part.contentType;
  bool zipType = type == "application/zip" || type == "application/x-zip-compressed" || type == "application/x-zip" ||
                 type == "multipart/x-zip";
  return zipName || zipType;
}

}  // namespace

// Everything the routes share: the context and the services they ask.
class ProjectRoutes {
 public:
  // Declares the services: AccessControl is required (every call asks it); Pages and
  // GithubAccess are used, since pages and github require Projects.
  explicit ProjectRoutes(docs::Registry& registry) : context_(registry.context()) {
    registry.require(access_);
    registry.use(pages_);
    registry.use(github_);
  }

  docs::AccessControl& access() { return *access_; }
  // Without the pages plugin projects simply have no pages.
  docs::Pages* pages() { return pages_.get(); }

  ProjectRow requireProject(std::int64_t id) {
    auto row = findProject(context_.db(), id);
    if (!row) throw HttpError::notFound("Project not found");
    return *row;
  }

  void list(docs::Request& request, docs::Response& response) {
    const auto& caller = request.requirePrincipal();
    auto grants = access().grantsOf(caller);
    std::unordered_map<std::int64_t, Role> roles;
    std::vector<std::int64_t> ids;
    for (const auto& [id, role] : grants) {
      auto [it, inserted] = roles.emplace(id, role);
      if (inserted) ids.push_back(id);
      else it->second = std::max(it->second, role);
    }
    auto projects = findProjects(context_.db(), ids);
    // Sort keys computed once: status badge order, then the name case-insensitively, then id.
    struct Key {
      int order;
      std::string name;
      std::int64_t id;
      const ProjectRow* row;
    };
    std::vector<Key> keys;
    keys.reserve(projects.size());
    for (const auto& project : projects) {
      std::string name = project.name;
      for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      keys.push_back({statusSortOrder(project.status), std::move(name), project.id, &project});
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
      return std::tie(a.order, a.name, a.id) < std::tie(b.order, b.name, b.id);
    });
    std::string body = "[";
    body.reserve(keys.size() * 500);
    for (const auto& key : keys) {
      if (body.size() > 1) body.push_back(',');
      appendProjectObject(body, *key.row, docs::roleName(roles[key.id]));
    }
    body.push_back(']');
    response.text(std::move(body), "application/json; charset=utf-8");
  }

  // github.url without a trailing slash: the base of every repository address.
  std::string githubBase() const {
    std::string base = context_.config().getString(docs::kGithubUrl.key);
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
  }

  void getOne(docs::Request& request, docs::Response& response) {
    std::optional<ProjectRow> row;
    if (auto id = request.query("projectId")) {
      row = findProject(context_.db(), parseId(*id, "projectId"));
    } else if (auto url = request.query("gitUrl")) {
      std::string base = githubBase();
      auto repository = parseGitUrl(*url, base);
      if (!repository) throw HttpError::badRequest("Invalid GitHub URL", "invalid_field");
      row = findProjectByGitUrl(context_.db(), repository->url(base));
    } else {
      throw HttpError::badRequest("Give projectId or gitUrl", "invalid_field");
    }
    if (!row) throw HttpError::notFound("Project not found");
    Role role = access().requireKnown(row->id, row->isPublic(), request.principal(), Role::Read);
    std::vector<docs::PageSummary> pageList;
    if (auto* service = pages()) pageList = service->listProject(row->id);
    bool defaultExists = false;
    std::int64_t firstRoot = 0;
    for (const auto& page : pageList) {
      if (page.id == row->defaultPageId) defaultExists = true;
      if (!firstRoot && page.parentId == 0) firstRoot = page.id;
    }
    Json out = projectJson(*row, docs::roleName(role));
    // A default page deleted meanwhile falls back to the first root page.
    if (!defaultExists) out["default_page_id"] = firstRoot ? Json(firstRoot) : Json();
    // The project, then its pages spliced in as "pages" (the object's last member).
    std::string body = out.dump();
    body.pop_back();
    body += ",\"pages\":";
    appendPageArray(body, pageList);
    body.push_back('}');
    response.text(std::move(body), "application/json; charset=utf-8");
  }

  // The shared part of the three create calls; returns the new project's id.
  std::int64_t create(const docs::Principal& caller, NewProject project, bool withFirstPage) {
    std::int64_t id = 0;
    project.createdBy = parseCallerId(caller);
    try {
      context_.db().transaction([&](docs::Tx& tx) {
        if (auto limit = context_.config().getInt("projects.max_per_user");
            project.createdBy > 0 && limit > 0 && lockAndCountProjectsOf(tx, project.createdBy) >= limit)
          throw HttpError(
              403, "quota_exceeded",
              "You have reached the limit of " + std::to_string(limit) + " projects. Delete one to create another.");
        id = insertProject(tx, project);
        access().grantCreator(tx, id, caller);
        if (withFirstPage) {
          if (auto* service = pages()) {
            std::int64_t pageId = service->create(tx, id, 0, "Untitled", "generated");
            setDefaultPage(tx, id, pageId);
          }
        }
        docs::publishAfterCommit(context_.events(), tx, docs::kProjectCreated,
                                 {id, project.type, project.gitUrl, project.language, project.createdBy});
      });
    } catch (const docs::DbError& error) {
      if (error.uniqueViolation()) throw HttpError::conflict("Project already exists");
      throw;
    }
    return id;
  }

  static std::int64_t parseCallerId(const docs::Principal& caller) {
    try {
      return parseId(caller.userId, "user");
    } catch (const HttpError&) {
      return 0;
    }
  }

  void respondCreated(std::int64_t id, docs::Response& response) {
    response.json(projectJson(requireProject(id), "admin"), 201);
  }

  void createEmpty(docs::Request& request, docs::Response& response, bool zip) {
    const auto& caller = request.requirePrincipal();
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"name", "is_private", "language"});
    NewProject project;
    project.type = "user";
    project.name = validNewName(optionalString(body, "name").value_or(""));
    project.isPrivate = optionalBool(body, "is_private").value_or(true);
    project.language = validLanguage(optionalString(body, "language"));
    // An empty project is ready at once; a ZIP project waits for its upload.
    project.status = docs::toString(zip ? docs::ProjectStatus::Idle : docs::ProjectStatus::Ready);
    respondCreated(create(caller, project, !zip), response);
  }

  void createGithub(docs::Request& request, docs::Response& response) {
    const auto& caller = request.requirePrincipal();
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"repo_owner", "repo_name", "name", "language", "is_private"});
    const HttpError invalid = HttpError::badRequest("Project creation info is missing or invalid", "invalid_field");
    auto stringField = [&](const char* field) {
      auto it = body.find(field);
      if (it == body.end() || !it->is_string() || collapseWhitespace(it->get<std::string>()).empty()) throw invalid;
      return collapseWhitespace(it->get<std::string>());
    };
    std::string owner = stringField("repo_owner");
    std::string repo = stringField("repo_name");
    std::string name = stringField("name");
    std::string language = stringField("language");
    auto isPrivate = body.find("is_private");
    if (isPrivate == body.end() || !isPrivate->is_boolean()) throw invalid;
    if (!validRepositoryPart(owner) || !validRepositoryPart(repo)) throw invalid;
    NewProject project;
    project.type = "github";
    project.name = validNewName(name);
    project.language = validLanguage(language);
    project.isPrivate = isPrivate->get<bool>();
    project.status = docs::toString(docs::ProjectStatus::RequestToClone);
    project.gitUrl = Repository{owner, repo}.url(githubBase());
    refuseExisting(caller, *project.gitUrl);
    // With a GitHub App configured, only repositories both the App and the caller can read
    // become projects: the App reaches every repository of an installation, the caller
    // perhaps not.
    std::int64_t installation = 0;
    if (auto* github = github_.get(); github && github->configured()) {
      try {
        installation = github->installationReadableBy(owner, repo, caller);
      } catch (const std::exception& error) {
        throw HttpError(502, "github_unavailable", std::string("Could not ask GitHub: ") + error.what());
      }
      if (installation <= 0) throw HttpError(403, "installation_required", "Install GitHub App");
    }
    std::int64_t created = 0;
    try {
      created = create(caller, project, false);
    } catch (const HttpError& error) {
      if (error.status() == 409) refuseExisting(caller, *project.gitUrl);  // created meanwhile
      throw;
    }
    if (installation > 0) updateInstallation(context_.db(), created, installation);
    respondCreated(created, response);
  }

  // A repository that already has a project: 409 for callers who may know it exists
  // (public, or they hold a role), 404 for the rest, as if they had asked for it by id.
  void refuseExisting(const docs::Principal& caller, const std::string& gitUrl) {
    auto existing = findProjectByGitUrl(context_.db(), gitUrl);
    if (!existing) return;
    if (!existing->isPublic() && access().grantedRole(existing->id, caller) == Role::None)
      throw HttpError::notFound("Project not found");
    throw HttpError::conflict("Project already exists");
  }

  void update(docs::Request& request, docs::Response& response) {
    std::int64_t id = request.idParam("id");
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"name", "description", "visibility"});
    auto name = optionalString(body, "name");
    auto description = optionalString(body, "description");
    auto visibility = optionalString(body, "visibility");
    if (!name && !description && !visibility)
      throw HttpError::badRequest("Send at least one of name, description, visibility", "invalid_field");
    ProjectRow row = requireProject(id);
    Role role = access().requireKnown(id, row.isPublic(), request.principal(), visibility ? Role::Admin : Role::Write);
    ProjectChanges changes;
    if (name) changes.name = validRename(*name);
    if (description) changes.description = validDescription(*description);
    if (visibility) {
      if (*visibility != "public" && *visibility != "private")
        throw HttpError::badRequest("'visibility' must be public or private", "invalid_field");
      changes.visibility = *visibility;
    }
    if (changes.name || changes.description || changes.visibility) updateProject(context_.db(), id, changes);
    auto updated = requireProject(id);
    if (changes.visibility && *changes.visibility != row.visibility)
      docs::publish(context_.events(), docs::kProjectVisibilityChanged, {id, *changes.visibility});
    response.json(projectJson(updated, docs::roleName(role)));
  }

  std::string uploadDirectory(std::int64_t id) const {
    return context_.dataDir() + "/uploads/projects/" + std::to_string(id);
  }

  void remove(docs::Request& request, docs::Response& response) {
    std::int64_t id = request.idParam("id");
    ProjectRow row = requireProject(id);
    access().requireKnown(id, row.isPublic(), request.principal(), Role::Admin);
    std::string directory = uploadDirectory(id);
    context_.db().transaction([&](docs::Tx& tx) {
      if (auto* service = pages()) service->removeProject(tx, id);
      access().removeProject(tx, id);
      if (!deleteProject(tx, id)) throw HttpError::notFound("Project not found");
      tx.afterCommit([directory] {
        std::error_code ignored;
        std::filesystem::remove_all(directory, ignored);
      });
      docs::publishAfterCommit(context_.events(), tx, docs::kProjectDeleted, {id});
    });
    response.json({{"id", id}, {"deleted", true}});
  }

  void uploadZip(docs::Request& request, docs::Response& response) {
    std::int64_t id = request.idParam("id");
    ProjectRow row = requireProject(id);
    access().requireKnown(id, row.isPublic(), request.principal(), Role::Write);
    auto boundary = multipartBoundary(request.header("Content-Type").value_or(""));
    if (!boundary)
      throw HttpError::badRequest("Send the file as multipart/form-data in the field 'file'", "invalid_field");
    MultipartReader reader(request.bodyReader(), *boundary);
    PartHeaders part;
    std::string directory = uploadDirectory(id);
    std::string finalPath = directory + "/source.zip";
    std::string fileName;
    std::uint64_t size = 0;
    bool stored = false;
    std::vector<char> buffer(64 * 1024);
    // The uploads of one person's projects share a quota (charged to the project's creator).
    std::uint64_t quota = static_cast<std::uint64_t>(
                              std::max<std::int64_t>(0, context_.config().getInt("projects.max_upload_mb_per_user")))
                          << 20;
    std::int64_t owner = creatorOf(context_.db(), id);
    std::uint64_t room =
        quota == 0 || owner == 0 ? UINT64_MAX : quota - std::min(quota, uploadBytesOf(context_.db(), owner, id));
    while (reader.nextPart(part)) {
      if (part.name != "file" || stored) continue;  // other fields are skipped
      if (!isZip(part)) throw HttpError::badRequest("Please select a ZIP file", "invalid_field");
      UploadFile file(directory);
      while (std::size_t n = reader.read(buffer.data(), buffer.size())) {
        if (file.size() + n >= kMaxZipBytes) throw HttpError::payloadTooLarge("File size must be less than 100MB");
        if (file.size() + n > room)
          throw HttpError(
              413, "quota_exceeded",
              "The uploads of this project's owner would pass their limit of " + std::to_string(quota >> 20) + " MB");
        file.write(buffer.data(), n);
      }
      if (file.size() == 0) throw HttpError::badRequest("The file is empty", "invalid_field");
      // The rest of the body must arrive intact before the upload counts.
      PartHeaders ignored;
      while (reader.nextPart(ignored)) {
      }
      size = file.size();
      file.commit(finalPath);
      fileName = part.fileName.value_or("upload.zip");
      stored = true;
    }
    if (!stored) throw HttpError::badRequest("The multipart field 'file' is missing", "invalid_field");
    recordUpload(context_.db(), id, finalPath, fileName, size);
    if (!findProject(context_.db(), id)) {
      std::error_code ignored;
      std::filesystem::remove_all(directory, ignored);
      throw HttpError::notFound("Project not found");
    }
    // Unpacking is the generation plugin's; until it exists the project stays as it is.
    docs::publish(context_.events(), docs::kProjectZipUploaded, {id, finalPath, fileName, size});
    response.json({{"project_id", id}, {"file_name", fileName}, {"size", size}, {"status", row.status}});
  }

 private:
  docs::Context& context_;
  docs::ServiceRef<docs::AccessControl> access_;
  docs::ServiceRef<docs::Pages> pages_;
  docs::ServiceRef<docs::GithubAccess> github_;
};

std::shared_ptr<ProjectRoutes> addProjectRoutes(docs::Registry& registry) {
  auto routes = std::make_shared<ProjectRoutes>(registry);
  docs::RouteOptions small;
  small.maxBodyBytes = kSmallBody;
  docs::RouteOptions zip;
  zip.maxBodyBytes = kZipRouteLimit;
  zip.streamBody = true;
  using docs::Method;
  using docs::Request;
  using docs::Response;
  registry.route(
      Method::Get, "/api/projects", [routes](Request& q, Response& r) { routes->list(q, r); }, {}, listProjectsDoc());
  registry.route(
      Method::Get, "/api/project", [routes](Request& q, Response& r) { routes->getOne(q, r); }, {}, getProjectDoc());
  registry.route(
      Method::Post, "/api/project", [routes](Request& q, Response& r) { routes->createEmpty(q, r, false); }, small,
      createProjectDoc(false));
  registry.route(
      Method::Post, "/api/project/zip", [routes](Request& q, Response& r) { routes->createEmpty(q, r, true); }, small,
      createProjectDoc(true));
  registry.route(
      Method::Post, "/api/project/github", [routes](Request& q, Response& r) { routes->createGithub(q, r); }, small,
      createGithubProjectDoc());
  registry.route(
      Method::Patch, "/api/project/{id}", [routes](Request& q, Response& r) { routes->update(q, r); }, small,
      updateProjectDoc());
  registry.route(
      Method::Delete, "/api/project/{id}", [routes](Request& q, Response& r) { routes->remove(q, r); }, {},
      deleteProjectDoc());
  registry.route(
      Method::Post, "/api/project/{id}/upload-zip", [routes](Request& q, Response& r) { routes->uploadZip(q, r); }, zip,
      uploadZipDoc());
  return routes;
}

}  // namespace docs_projects
