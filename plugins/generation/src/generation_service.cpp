#include "generation_service.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "analysis.hpp"
#include "analysis_service.hpp"
#include "inventory.hpp"
#include "offline_writer.hpp"
#include "planner.hpp"
#include "source_archive.hpp"

namespace fs = std::filesystem;

namespace docs::generation {
namespace {

// A stage ended for good: the project takes `status`, the job does not retry.
struct StageFailure : std::runtime_error {
  StageFailure(std::string statusValue, const std::string& message)
      : std::runtime_error(message), status(std::move(statusValue)) {}
  std::string status;
};

// The project was deleted meanwhile: stop quietly.
struct ProjectGone : std::runtime_error {
  ProjectGone() : std::runtime_error("the project was deleted") {}
};

constexpr int kAttempts = 3;

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeAtomically(const fs::path& path, const std::string& text) {
  fs::path temp = path;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + temp.string());
  }
  fs::rename(temp, path);
}

std::uint64_t randomClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

}  // namespace

GenerationService::GenerationService(Context& context, GenerationSettings settings)
    : context_(context), settings_(std::move(settings)) {}

std::string GenerationService::projectDir(std::int64_t projectId) const {
  return (fs::path(context_.dataDir()) / "generation" / std::to_string(projectId)).string();
}

bool GenerationService::setStatus(std::int64_t projectId, const std::string& status, const std::string& message) {
  auto* projects = context_.findService<Projects>();
  if (!projects || !projects->find(projectId)) return false;
  // History first: whoever sees the project's new status finds it in the history too.
  context_.db().exec("INSERT INTO generation_status_log (project_id, status, message) VALUES ($1, $2, $3)",
                     {projectId, status, message});
  context_.db().exec("INSERT INTO generation_runs (project_id, stage, message) VALUES ($1, $2, $3)"
                     " ON CONFLICT (project_id) DO UPDATE SET stage = $2, message = $3, updated_at = now(),"
                     " finished_at = CASE WHEN $2 IN ('DOC_SUCCESS', 'DOC_FAILURE') OR $2 LIKE '%FAIL%' THEN now() END",
                     {projectId, status, message});
  if (!projects->setStatus(projectId, status)) return false;
  if (settings_.stageDelayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(settings_.stageDelayMs));
  return true;
}

void GenerationService::queueStage(std::int64_t projectId, const std::string& stage) {
  context_.jobs().enqueue(JobSpec(kJobKind, {{"project_id", projectId}, {"stage", stage}}, kAttempts,
                                  std::chrono::seconds(0), "generation:" + std::to_string(projectId) + ":" + stage));
}

void GenerationService::onZipUploaded(std::int64_t projectId) {
  if (!setStatus(projectId, "REQUEST_TO_CLONE")) return;
  queueStage(projectId, "unpack");
}

void GenerationService::onProjectCreated(std::int64_t projectId) {
  auto* projects = context_.findService<Projects>();
  auto project = projects ? projects->find(projectId) : std::nullopt;
  if (!project || project->type != "github" || project->gitUrl.empty() || project->status != "REQUEST_TO_CLONE") return;
  context_.db().exec("INSERT INTO generation_runs (project_id, stage, message) VALUES ($1, 'REQUEST_TO_CLONE', '')"
                     " ON CONFLICT (project_id) DO NOTHING",
                     {projectId});
  context_.db().exec("INSERT INTO generation_status_log (project_id, status, message) VALUES ($1, 'REQUEST_TO_CLONE', '')",
                     {projectId});
  queueStage(projectId, "clone");
}

void GenerationService::recoverLostUploads() {
  auto* projects = context_.findService<Projects>();
  if (!projects) return;
  for (auto id : projects->uploadsInStatus("IDLE", 100)) {
    context_.logger().info("starting the generation of an upload whose event was lost", {{"project_id", id}});
    onZipUploaded(id);
  }
  for (auto id : projects->uploadsInStatus("REQUEST_TO_CLONE", 100)) {
    // A pending job for it keeps its dedupe key, so queueing again is harmless; only
    // requests older than a minute are looked at, to leave in-flight events alone.
    auto stale = context_.db().exec("SELECT 1 FROM generation_runs WHERE project_id = $1 AND stage = 'REQUEST_TO_CLONE'"
                                    " AND updated_at < now() - interval '1 minute'",
                                    {id});
    auto known = context_.db().exec("SELECT 1 FROM generation_runs WHERE project_id = $1", {id});
    if (!stale.empty() || known.empty()) queueStage(id, "unpack");
  }
}

void GenerationService::onProjectDeleted(std::int64_t projectId) {
  std::error_code ignored;
  fs::remove_all(projectDir(projectId), ignored);
  context_.db().exec("DELETE FROM generation_pages WHERE project_id = $1", {projectId});
  context_.db().exec("DELETE FROM generation_runs WHERE project_id = $1", {projectId});
  context_.db().exec("DELETE FROM generation_status_log WHERE project_id = $1", {projectId});
}

void GenerationService::failIfAsked(const std::string& stage, const std::string& failedStatus) {
  if (!settings_.failStage.empty() && settings_.failStage == stage)
    throw StageFailure(failedStatus, "failure forced by generation.fail_stage=" + stage);
}

void GenerationService::runStage(JobContext& job) {
  std::int64_t projectId = job.payload().at("project_id").get<std::int64_t>();
  std::string stage = job.payload().at("stage").get<std::string>();
  auto* projects = context_.findService<Projects>();
  if (!projects || !projects->find(projectId)) return;  // deleted: nothing to do
  // The status a failure of this stage leaves, kept up to date by the stage.
  std::string failureStatus = stage == "unpack" || stage == "clone" ? "CLONE_FAIL" : stage == "analyze" ? "DOC_FILE_OVERVIEWS_FAILED" : "DOC_FAILURE";
  try {
    if (stage == "unpack") unpack(projectId);
    else if (stage == "clone") cloneSources(projectId, job);
    else if (stage == "analyze") analyzeSources(projectId);
    else if (stage == "write") writePages(projectId, job);
    else throw StageFailure("DOC_FAILURE", "unknown stage " + stage);
  } catch (const ProjectGone&) {
    context_.logger().info("generation stopped: the project was deleted", {{"project_id", projectId}});
  } catch (const StageFailure& failure) {
    context_.logger().warn("generation failed", {{"project_id", projectId}, {"stage", stage}, {"error", failure.what()}});
    setStatus(projectId, failure.status, failure.what());
  } catch (const std::exception& error) {
    if (job.attempt() < kAttempts) throw;  // retried with backoff
    std::string status = failureStatus;
    if (auto row = context_.db().exec("SELECT stage FROM generation_runs WHERE project_id = $1", {projectId}); !row.empty()) {
      static const std::map<std::string, std::string> failedOf = {
          {"CLONING", "CLONE_FAIL"}, {"DOC_PENDING", "DOC_FILE_OVERVIEWS_FAILED"},
          {"DOC_FILE_OVERVIEWS_GENERATING", "DOC_FILE_OVERVIEWS_FAILED"},
          {"DOC_PROJECT_OVERVIEW_GENERATING", "DOC_PROJECT_OVERVIEW_FAILED"}, {"DOC_TOPICS_GENERATING", "DOC_TOPICS_FAILED"},
          {"DOC_TOPIC_PAGES_GENERATING", "DOC_TOPIC_PAGES_FAILED"}, {"DOC_SUBTOPICS_GENERATING", "DOC_FAILURE"},
          {"DOC_FILE_PAGES_GENERATING", "DOC_FILE_PAGES_FAILED"}};
      if (auto found = failedOf.find(row[0].text("stage")); found != failedOf.end()) status = found->second;
    }
    context_.logger().error("generation failed", {{"project_id", projectId}, {"stage", stage}, {"error", error.what()}});
    setStatus(projectId, status, error.what());
  }
}

void GenerationService::unpack(std::int64_t projectId) {
  auto* projects = context_.findService<Projects>();
  std::string archive = projects->uploadedArchive(projectId);
  if (!setStatus(projectId, "CLONING")) throw ProjectGone();
  failIfAsked("unpack", "CLONE_FAIL");
  if (archive.empty() || !fs::exists(archive)) throw StageFailure("CLONE_FAIL", "No uploaded archive was found");
  fs::path dir = projectDir(projectId);
  fs::create_directories(dir);
  fs::path source = dir / "source";
  std::error_code ignored;
  fs::remove_all(source, ignored);  // a resumed unpack starts over
  ArchiveLimits limits;
  limits.maxEntries = settings_.maxFiles * 2;
  limits.maxTotalBytes = settings_.maxUnpackedBytes;
  auto result = unpackZip(archive, source.string(), limits);
  if (!result.ok) throw StageFailure("CLONE_FAIL", result.error);
  if (!setStatus(projectId, "CLONE_SUCCESS", std::to_string(result.files) + " files unpacked")) throw ProjectGone();
  queueStage(projectId, "analyze");
}

void GenerationService::cloneSources(std::int64_t projectId, JobContext& job) {
  auto* projects = context_.findService<Projects>();
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  if (!setStatus(projectId, "CLONING")) throw ProjectGone();
  failIfAsked("clone", "CLONE_FAIL");
  if (auto refused = refuseCloneUrl(project->gitUrl, settings_.clonePolicy)) throw StageFailure("CLONE_FAIL", *refused);
  fs::path dir = projectDir(projectId);
  fs::create_directories(dir);
  fs::path source = dir / "source";
  std::error_code ignored;
  fs::remove_all(source, ignored);  // a resumed clone starts over
  auto credentials = credentials_ ? credentials_(projectId) : std::nullopt;
  auto result = cloneRepository(project->gitUrl, source.string(), credentials, settings_.gitLimits, [&] {
    job.heartbeat();
    return job.stopping();
  });
  if (!result.ok) {
    if (job.stopping()) throw std::runtime_error("shutting down; the clone resumes on restart");
    throw StageFailure("CLONE_FAIL", result.error);
  }
  if (!projects->setCommitHash(projectId, result.commit)) throw ProjectGone();
  if (!setStatus(projectId, "CLONE_SUCCESS", "commit " + result.commit + " of " + result.branch)) throw ProjectGone();
  queueStage(projectId, "analyze");
}

void GenerationService::analyzeSources(std::int64_t projectId) {
  if (!setStatus(projectId, "DOC_PENDING")) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  fs::path source = dir / "source";
  if (!fs::is_directory(source)) throw StageFailure("DOC_FAILURE", "The project's sources are missing");
  if (!setStatus(projectId, "DOC_FILE_OVERVIEWS_GENERATING")) throw ProjectGone();
  failIfAsked("analyze", "DOC_FILE_OVERVIEWS_FAILED");
  InventoryLimits limits;
  limits.maxFiles = settings_.maxFiles;
  auto inventory = takeInventory(source.string(), limits);
  AnalysisOptions options;
  options.ctags = settings_.ctags;
  auto analysis = analyze(source.string(), inventory, options);
  auto* projects = context_.findService<Projects>();
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  analysis.name = project->name;
  writeAtomically(dir / "analysis.json", analysis.toJson().dump());
  queueStage(projectId, "write");
}

void GenerationService::writePages(std::int64_t projectId, JobContext& job) {
  auto* projects = context_.findService<Projects>();
  auto* pages = context_.findService<Pages>();
  if (!pages) throw std::runtime_error("the pages plugin is not running");
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  auto analysis = Analysis::fromJson(nlohmann::json::parse(readText(dir / "analysis.json")));
  PlanOptions planOptions;
  if (fs::exists(dir / "source" / ".docs" / "wiki.json")) planOptions.wikiJson = readText(dir / "source" / ".docs" / "wiki.json");

  std::string status = "DOC_PROJECT_OVERVIEW_GENERATING";
  auto advance = [&](const std::string& next) {
    status = next;
    if (!setStatus(projectId, next)) throw ProjectGone();
    job.heartbeat();
  };
  auto failedStatus = [&]() -> std::string {
    if (status == "DOC_PROJECT_OVERVIEW_GENERATING") return "DOC_PROJECT_OVERVIEW_FAILED";
    if (status == "DOC_TOPICS_GENERATING") return "DOC_TOPICS_FAILED";
    if (status == "DOC_TOPIC_PAGES_GENERATING") return "DOC_TOPIC_PAGES_FAILED";
    if (status == "DOC_FILE_PAGES_GENERATING") return "DOC_FILE_PAGES_FAILED";
    return "DOC_FAILURE";
  };

  // Page ids of earlier attempts are reused, so a resumed run writes no duplicates.
  std::map<std::string, std::int64_t> ids;
  for (auto row : context_.db().exec("SELECT key, page_id FROM generation_pages WHERE project_id = $1", {projectId}))
    ids[row.text("key")] = row.int64("page_id");
  auto ensurePage = [&](const PageDraft& draft) {
    auto found = ids.find(draft.key);
    if (found != ids.end() && pages->find(found->second)) return found->second;
    std::int64_t parent = draft.parentKey.empty() ? 0 : ids.at(draft.parentKey);
    std::int64_t id = 0;
    context_.db().transaction([&](Tx& tx) {
      id = pages->create(tx, projectId, parent, draft.title.substr(0, 120), draft.type);
      tx.exec("INSERT INTO generation_pages (project_id, key, page_id) VALUES ($1, $2, $3)"
              " ON CONFLICT (project_id, key) DO UPDATE SET page_id = EXCLUDED.page_id",
              {projectId, draft.key, id});
      if (draft.key == "overview") projects->setDefaultPage(tx, projectId, id);
    });
    ids[draft.key] = id;
    return id;
  };

  try {
    advance("DOC_PROJECT_OVERVIEW_GENERATING");
    failIfAsked("overview", "DOC_PROJECT_OVERVIEW_FAILED");
    auto plan = planTopics(analysis, planOptions);
    auto drafts = planPages(analysis, plan, project->language.empty() ? "en" : project->language);
    for (const auto& draft : drafts) ensurePage(draft);
    WriterContext writer;
    writer.language = project->language.empty() ? "en" : project->language;
    writer.sourceRoot = (dir / "source").string();
    writer.sourceUrl = [gitUrl = project->gitUrl, commit = project->commitHash](const std::string& path, int from, int to) {
      return sourceLineUrl(gitUrl, commit, path, from, to);
    };
    writer.pageHref = [&](const std::string& key) {
      auto found = ids.find(key);
      return found == ids.end() ? std::string()
                                : "/projects/" + std::to_string(projectId) + "/" + std::to_string(found->second);
    };
    std::size_t written = 0;
    auto store = [&](PageDraft& draft) {
      writePage(draft, analysis, plan, writer);
      auto bytes = ydoc::proseMirrorJsonToUpdate(draft.content, randomClientId());
      if (!pages->setContent(ids.at(draft.key), std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())))
        throw ProjectGone();  // its page (and so the project) was deleted meanwhile
      if (++written % 50 == 0) {
        job.heartbeat();
        if (job.stopping()) throw std::runtime_error("shutting down; the stage resumes on restart");
        if (!projects->find(projectId)) throw ProjectGone();
      }
    };
    auto writeWhere = [&](auto predicate) {
      for (auto& draft : drafts)
        if (predicate(draft)) store(draft);
    };
    writeWhere([](const PageDraft& d) { return d.key == "overview"; });
    advance("DOC_TOPICS_GENERATING");
    failIfAsked("topics", "DOC_TOPICS_FAILED");
    std::set<std::string> topLevel;
    for (const auto& topic : plan.topics) topLevel.insert(topic.key);
    advance("DOC_TOPIC_PAGES_GENERATING");
    failIfAsked("topic_pages", "DOC_TOPIC_PAGES_FAILED");
    writeWhere([&](const PageDraft& d) { return topLevel.count(d.key) > 0; });
    advance("DOC_SUBTOPICS_GENERATING");
    failIfAsked("subtopics", "DOC_FAILURE");
    writeWhere([&](const PageDraft& d) { return d.key.rfind("topic:", 0) == 0 && !topLevel.count(d.key); });
    advance("DOC_FILE_PAGES_GENERATING");
    failIfAsked("file_pages", "DOC_FILE_PAGES_FAILED");
    writeWhere([](const PageDraft& d) { return d.key.rfind("file:", 0) == 0; });
    advance("DOC_SUCCESS");
    context_.events().publish(kAnalysisChangedEvent, {{"project_id", projectId}});
  } catch (const ProjectGone&) {
    throw;
  } catch (const StageFailure&) {
    throw;
  } catch (const DbError&) {
    throw;  // retried
  } catch (const std::exception& error) {
    // Pages written so far stay; the project shows how far it got.
    throw StageFailure(failedStatus(), error.what());
  }
}

nlohmann::json GenerationService::describe(std::int64_t projectId) {
  nlohmann::json out = {{"history", nlohmann::json::array()}};
  for (auto row : context_.db().exec("SELECT status, message, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS at"
                                     " FROM generation_status_log WHERE project_id = $1 ORDER BY id",
                                     {projectId}))
    out["history"].push_back({{"status", row.text("status")}, {"message", row.text("message")}, {"at", row.text("at")}});
  if (auto run = context_.db().exec("SELECT stage, message FROM generation_runs WHERE project_id = $1", {projectId}); !run.empty()) {
    out["stage"] = run[0].text("stage");
    out["message"] = run[0].text("message");
  }
  return out;
}

}  // namespace docs::generation
