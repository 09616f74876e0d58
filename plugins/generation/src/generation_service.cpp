#include "generation_service.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/http.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>
#include <docs/services/analysis.hpp>
#include <docs/services/github_access.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "analysis/analysis.hpp"
#include "analysis/analysis_service.hpp"
#include "analysis/inventory.hpp"
#include "writing/model_writer.hpp"
#include "writing/offline_writer.hpp"
#include "writing/page_writer.hpp"
#include "planning/planner.hpp"
#include "sources/source_archive.hpp"

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

// Polled by long transfers (a clone, an unpack): the server stopping or the project being
// deleted ends them. Looks at most twice a second, so a fast callback costs nothing.
class StopWatch {
 public:
  StopWatch(JobContext& job, std::function<bool()> projectGone) : job_(job), projectGone_(std::move(projectGone)) {}
  bool operator()() {
    auto now = std::chrono::steady_clock::now();
    if (gone_ || now - lastLook_ < std::chrono::milliseconds(500)) return gone_ || job_.stopping();
    lastLook_ = now;
    job_.heartbeat();
    gone_ = projectGone_();
    return gone_ || job_.stopping();
  }
  bool projectGone() const { return gone_; }

 private:
  JobContext& job_;
  std::function<bool()> projectGone_;
  std::chrono::steady_clock::time_point lastLook_{};
  bool gone_ = false;
};

std::uint64_t randomClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

}  // namespace

GenerationService::GenerationService(Context& context, GenerationSettings settings)
    : context_(context), settings_(std::move(settings)),
      stageRuns_(context.metrics().counter("docsd_generation_stages_total",
                                           "Generation stages run, by stage and outcome (done, failed, retry, gone).",
                                           {"stage", "outcome"})),
      stageSeconds_(context.metrics().histogram("docsd_generation_stage_seconds", "Time one generation stage ran, by stage.",
                                                {"stage"}, {0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600})) {}

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
  // The upload event and the start-up sweep for lost events can both see one upload: the
  // second only queues (deduplicated), so the history shows REQUEST_TO_CLONE once.
  auto* projects = context_.findService<Projects>();
  auto project = projects ? projects->find(projectId) : std::nullopt;
  if (project && project->status == "REQUEST_TO_CLONE") {
    queueStage(projectId, "unpack");
    return;
  }
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

bool GenerationService::projectExists(std::int64_t projectId) {
  auto* projects = context_.findService<Projects>();
  return projects && projects->find(projectId);
}

std::chrono::steady_clock::time_point GenerationService::runDeadline(std::int64_t projectId) {
  if (settings_.maxRunSeconds <= 0) return std::chrono::steady_clock::time_point::max();
  auto rows = context_.db().exec("SELECT COALESCE(floor(extract(epoch FROM now() - max(at)) * 1000), 0)::bigint AS ms"
                                 " FROM generation_status_log WHERE project_id = $1 AND status = 'DOC_PENDING'",
                                 {projectId});
  std::int64_t elapsedMs = rows.empty() ? 0 : rows[0].int64("ms");
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(std::int64_t{settings_.maxRunSeconds} * 1000 - elapsedMs);
}

void GenerationService::failIfAsked(const std::string& stage, const std::string& failedStatus) {
  if (!settings_.failStage.empty() && settings_.failStage == stage)
    throw StageFailure(failedStatus, "failure forced by generation.fail_stage=" + stage);
}

void GenerationService::runStage(JobContext& job) {
  std::int64_t projectId = job.payload().at("project_id").get<std::int64_t>();
  std::string stage = job.payload().at("stage").get<std::string>();
  auto* projects = context_.findService<Projects>();
  std::error_code ignored;
  if (!projects || !projects->find(projectId)) {
    fs::remove_all(projectDir(projectId), ignored);  // deleted: nothing to do, nothing to keep
    return;
  }
  // Counted whichever way the stage ends (a retry leaves by the rethrow).
  struct StageMetrics {
    Counter& runs;
    Histogram& seconds;
    std::string stage;
    std::string outcome = "retry";
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    ~StageMetrics() {
      runs.inc({stage, outcome});
      seconds.observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), {stage});
    }
  } metrics{stageRuns_, stageSeconds_, kStages.count(stage) ? stage : "unknown"};
  // The status a failure of this stage leaves, kept up to date by the stage.
  std::string failureStatus = stage == "unpack" || stage == "clone" ? "CLONE_FAIL" : stage == "sync" ? "PULL_FAIL" : stage == "analyze" ? "DOC_FILE_OVERVIEWS_FAILED" : "DOC_FAILURE";
  try {
    if (stage == "unpack") unpack(projectId, job);
    else if (stage == "clone") cloneSources(projectId, job);
    else if (stage == "sync") syncRepository(projectId, job);
    else if (stage == "analyze") analyzeSources(projectId);
    else if (stage == "write") writePages(projectId, job);
    else throw StageFailure("DOC_FAILURE", "unknown stage " + stage);
    metrics.outcome = "done";
  } catch (const ProjectGone&) {
    metrics.outcome = "gone";
    // The delete handler removed the folder, but a transfer may have written into it since.
    fs::remove_all(projectDir(projectId), ignored);
    context_.logger().info("generation stopped: the project was deleted", {{"project_id", projectId}, {"stage", stage}});
  } catch (const StageFailure& failure) {
    metrics.outcome = "failed";
    if (!projectExists(projectId)) {  // it failed because the project went (its upload was deleted)
      metrics.outcome = "gone";
      fs::remove_all(projectDir(projectId), ignored);
      context_.logger().info("generation stopped: the project was deleted", {{"project_id", projectId}, {"stage", stage}});
      return;
    }
    context_.logger().warn("generation failed", {{"project_id", projectId}, {"stage", stage}, {"error", failure.what()}});
    setStatus(projectId, failure.status, failure.what());
  } catch (const std::exception& error) {
    if (job.attempt() < kAttempts) throw;  // retried with backoff
    metrics.outcome = "failed";
    std::string status = failureStatus;
    if (auto row = context_.db().exec("SELECT stage FROM generation_runs WHERE project_id = $1", {projectId}); !row.empty()) {
      static const std::map<std::string, std::string> failedOf = {
          {"CLONING", "CLONE_FAIL"}, {"DOC_UPDATING", "DOC_FAILURE"}, {"DOC_PENDING", "DOC_FILE_OVERVIEWS_FAILED"},
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

void GenerationService::unpack(std::int64_t projectId, JobContext& job) {
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
  StopWatch stop(job, [&] { return !projectExists(projectId); });
  auto result = unpackZip(archive, source.string(), limits, std::ref(stop));
  if (!result.ok) {
    if (stop.projectGone() || !projectExists(projectId)) throw ProjectGone();
    if (job.stopping()) throw std::runtime_error("shutting down; the unpack resumes on restart");
    throw StageFailure("CLONE_FAIL", result.error);
  }
  if (!setStatus(projectId, "CLONE_SUCCESS", std::to_string(result.files) + " files unpacked")) throw ProjectGone();
  queueStage(projectId, "analyze");
}

void GenerationService::cloneSources(std::int64_t projectId, JobContext& job) {
  auto* projects = context_.findService<Projects>();
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  if (!setStatus(projectId, "CLONING")) throw ProjectGone();
  failIfAsked("clone", "CLONE_FAIL");
  // The addresses checked here are the ones the clone connects to (no second lookup).
  auto checked = checkCloneUrl(project->gitUrl, settings_.clonePolicy);
  if (checked.refused) throw StageFailure("CLONE_FAIL", *checked.refused);
  fs::path dir = projectDir(projectId);
  fs::create_directories(dir);
  fs::path source = dir / "source";
  std::error_code ignored;
  fs::remove_all(source, ignored);  // a resumed clone starts over
  std::optional<GitCredentials> credentials;
  try {
    credentials = credentialsFor(projectId);
  } catch (const std::exception& error) {
    throw StageFailure("CLONE_FAIL", error.what());
  }
  StopWatch stop(job, [&] { return !projectExists(projectId); });
  auto result = cloneRepository(checked.target, source.string(), credentials, settings_.gitLimits, std::ref(stop));
  if (!result.ok) {
    if (stop.projectGone() || !projectExists(projectId)) throw ProjectGone();
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
  if (!fs::is_directory(source)) throw StageFailure("DOC_FILE_OVERVIEWS_FAILED", "The project's sources are missing");
  if (!setStatus(projectId, "DOC_FILE_OVERVIEWS_GENERATING")) throw ProjectGone();
  failIfAsked("analyze", "DOC_FILE_OVERVIEWS_FAILED");
  auto deadline = runDeadline(projectId);
  // Between batches of ctags: a deleted project stops, a run over its time fails.
  auto checkpoint = [&] {
    if (!projectExists(projectId)) throw ProjectGone();
    if (std::chrono::steady_clock::now() > deadline)
      throw StageFailure("DOC_FILE_OVERVIEWS_FAILED", "Generation took longer than this server allows (generation.max_run_seconds = " +
                                                          std::to_string(settings_.maxRunSeconds) + ")");
  };
  InventoryLimits limits;
  limits.maxFiles = settings_.maxFiles;
  limits.checkpoint = checkpoint;  // a walk over a huge tree stops with the project
  auto inventory = takeInventory(source.string(), limits);
  checkpoint();
  AnalysisOptions options;
  options.ctags = settings_.ctags;
  Analysis analysis;
  try {
    analysis = analyze(source.string(), inventory, options, [&](std::size_t, std::size_t) { checkpoint(); });
  } catch (const CtagsFailed& failed) {
    // Without symbols the pages would miss every API table: a failed stage, not a thin success.
    throw StageFailure("DOC_FILE_OVERVIEWS_FAILED", failed.what());
  }
  checkpoint();
  auto* projects = context_.findService<Projects>();
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  analysis.name = project->name;
  writeAtomically(dir / "analysis.json", analysis.toJsonText());
  analysisCache_.remember(dir / "analysis.json", std::make_shared<const Analysis>(std::move(analysis)));
  queueStage(projectId, "write");
}

void GenerationService::writePages(std::int64_t projectId, JobContext& job) {
  auto* projects = context_.findService<Projects>();
  auto* pages = context_.findService<Pages>();
  if (!pages) throw std::runtime_error("the pages plugin is not running");
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  auto analyzed = analysisCache_.read(dir / "analysis.json");
  if (!analyzed) throw std::runtime_error("the analysis of project " + std::to_string(projectId) + " is missing or damaged");
  const Analysis& analysis = *analyzed;
  PlanOptions planOptions;
  if (fs::exists(dir / "source" / ".docs" / "wiki.json")) planOptions.wikiJson = readText(dir / "source" / ".docs" / "wiki.json");
  planOptions.sourceRoot = (dir / "source").string();

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
    auto deadline = runDeadline(projectId);
    auto overTime = [&] {
      return StageFailure(failedStatus(), "Generation took longer than this server allows (generation.max_run_seconds = " +
                                              std::to_string(settings_.maxRunSeconds) + ")");
    };
    // Keeps the job's lease; a stop, a deletion or the end of the run's time ends the stage.
    auto checkpoint = [&] {
      job.heartbeat();
      if (job.stopping()) throw std::runtime_error("shutting down; the stage resumes on restart");
      if (!projects->find(projectId)) throw ProjectGone();
      if (std::chrono::steady_clock::now() > deadline) throw overTime();
    };
    // compose and persist touch no job state, so the model's pages can be written by several
    // threads at once (the model's answers are the slow part).
    std::atomic<int> modelUsed{0}, modelFailed{0}, modelClaimed{0};
    auto compose = [&](PageDraft& draft) {
      writePage(draft, analysis, plan, writer);
      if (!settings_.model.configured() || draft.key.rfind("file:", 0) != 0) return;
      const auto* file = analysis.find(draft.key.substr(5));
      if (!file || !modelWritesOpening(*file) || modelClaimed.fetch_add(1) >= settings_.maxModelPages) return;
      auto result = writeFileOpeningWithModel(draft, *file, analysis, writer, settings_.model, &plan);
      if (result.used) {
        ++modelUsed;
      } else {
        ++modelFailed;
        context_.logger().warn("the model's page was not used; the offline page stays",
                               {{"project_id", projectId}, {"page", draft.key}, {"why", result.problem}});
      }
    };
    auto persist = [&](const PageDraft& draft) {
      auto bytes = ydoc::proseMirrorJsonToUpdate(draft.content, randomClientId());
      if (!pages->setContent(ids.at(draft.key), std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())))
        throw ProjectGone();  // its page (and so the project) was deleted meanwhile
      labelVersion(context_, ids.at(draft.key),
                   project->commitHash.empty() ? std::string("Generated") : "Generated from " + project->commitHash.substr(0, 12));
      context_.db().exec("UPDATE generation_pages SET written_digest = $3 WHERE project_id = $1 AND key = $2",
                         {projectId, draft.key, contentDigest(draft.content)});
    };
    std::size_t written = 0;
    auto store = [&](PageDraft& draft) {
      if (std::chrono::steady_clock::now() > deadline) throw overTime();
      compose(draft);
      persist(draft);
      if (settings_.model.configured() || ++written % 50 == 0) checkpoint();
    };
    auto writeWhere = [&](auto predicate) {
      std::vector<PageDraft*> selected;
      for (auto& draft : drafts)
        if (predicate(draft)) selected.push_back(&draft);
      std::size_t threads = settings_.model.configured() ? std::min<std::size_t>(settings_.model.concurrency, selected.size()) : 1;
      if (threads <= 1) {
        for (auto* draft : selected) store(*draft);
        return;
      }
      // A bounded pool: each worker takes the next page; this thread keeps the lease and
      // watches for a stop. The first failure stops the others and is thrown here.
      std::atomic<std::size_t> next{0}, finished{0};
      std::atomic<bool> stop{false};
      std::mutex failureMutex;
      std::exception_ptr failure;
      auto fail = [&](std::exception_ptr error) {
        std::lock_guard lock(failureMutex);
        if (!failure) failure = error;
        stop = true;
      };
      std::vector<std::thread> pool;
      for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back([&] {
          try {
            for (std::size_t i; !stop && (i = next++) < selected.size();) {
              if (std::chrono::steady_clock::now() > deadline) throw overTime();
              compose(*selected[i]);
              persist(*selected[i]);
            }
          } catch (...) {
            fail(std::current_exception());
          }
          ++finished;
        });
      while (finished < threads) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (stop) continue;
        try {
          checkpoint();
        } catch (...) {
          fail(std::current_exception());
        }
      }
      for (auto& worker : pool) worker.join();
      if (failure) std::rethrow_exception(failure);
    };
    // The overview and the pages beside it (concepts, getting started): all but topics and files.
    writeWhere([](const PageDraft& d) { return d.key.rfind("topic:", 0) != 0 && d.key.rfind("file:", 0) != 0; });
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
    status = "DOC_SUCCESS";
    if (!setStatus(projectId, "DOC_SUCCESS",
                   settings_.model.configured() ? "the model wrote " + std::to_string(modelUsed.load()) + " file openings; " +
                                                      std::to_string(modelFailed.load()) + " fell back to the offline writer"
                                                : "offline writer"))
      throw ProjectGone();
    context_.events().publish(kAnalysisChangedEvent, {{"project_id", projectId}});
    // Pushes that arrived while the first run worked are synced now.
    if (auto wanted = context_.db().exec("SELECT sync_wanted FROM generation_runs WHERE project_id = $1", {projectId});
        !wanted.empty() && wanted[0].int64("sync_wanted") > 0)
      queueStage(projectId, "sync");
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


std::optional<GitCredentials> GenerationService::credentialsFor(std::int64_t projectId) {
  auto* github = context_.findService<GithubAccess>();
  auto* projects = context_.findService<Projects>();
  if (!github || !github->configured() || !projects) return std::nullopt;
  auto project = projects->find(projectId);
  if (!project || project->gitUrl.empty()) return std::nullopt;
  // owner/repo are the last two segments of the repository's address.
  auto parsed = parseUrl(project->gitUrl);
  if (!parsed) return std::nullopt;
  std::string path = parsed->path;
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.size() > 4 && path.ends_with(".git")) path.resize(path.size() - 4);
  auto slash = path.rfind('/');
  auto ownerSlash = slash == std::string::npos || slash == 0 ? std::string::npos : path.rfind('/', slash - 1);
  if (ownerSlash == std::string::npos) return std::nullopt;
  std::string owner = path.substr(ownerSlash + 1, slash - ownerSlash - 1), repo = path.substr(slash + 1);
  std::int64_t installation = project->installationId;
  if (installation <= 0) {
    installation = github->installationFor(owner, repo);
    if (installation <= 0) return std::nullopt;  // not installed: try a public clone
    projects->setInstallation(projectId, installation);
  }
  // The App reaches the whole account: the code is read on behalf of the person who made
  // the project, and only while GitHub says they may read it (a project made before the
  // App was set up, or by someone who has since lost access, gets no token).
  if (project->createdBy > 0) {
    Principal creator;
    creator.userId = std::to_string(project->createdBy);
    if (github->installationReadableBy(owner, repo, creator) <= 0)
      throw std::runtime_error("The person who created this project cannot read " + owner + "/" + repo +
                               " on GitHub (or has no GitHub account linked), so it is not cloned with the GitHub App");
  }
  // A token for this one repository: the installation may reach many more.
  auto token = github->repositoryToken(installation, owner, repo);
  if (!token) return std::nullopt;
  return GitCredentials{"x-access-token", *token};
}

void GenerationService::requestSync(std::int64_t projectId) {
  auto* projects = context_.findService<Projects>();
  auto project = projects ? projects->find(projectId) : std::nullopt;
  if (!project || project->type != "github") return;
  context_.db().exec("INSERT INTO generation_runs (project_id, stage, sync_wanted) VALUES ($1, $2, 1)"
                     " ON CONFLICT (project_id) DO UPDATE SET sync_wanted = generation_runs.sync_wanted + 1",
                     {projectId, project->status});
  static const std::set<std::string> settled = {"DOC_SUCCESS", "PULL_FAIL", "DOC_FAILURE", "DOC_FILE_PAGES_FAILED", "DOC_UPDATING"};
  // A first run that failed before its pages were all written starts over from the new
  // commit (its pages are remembered: the new run writes no duplicates).
  static const std::set<std::string> firstRunFailed = {"CLONE_FAIL", "DOC_FILE_OVERVIEWS_FAILED", "DOC_PROJECT_OVERVIEW_FAILED",
                                                       "DOC_TOPICS_FAILED", "DOC_TOPIC_PAGES_FAILED"};
  if (firstRunFailed.count(project->status)) {
    if (project->status != "CLONE_FAIL") setStatus(projectId, "REQUEST_TO_CLONE", "a push starts the failed run over");
    queueStage(projectId, "clone");
  } else if (settled.count(project->status)) {
    queueStage(projectId, "sync");
  }
  // Otherwise the first run is still going; it queues the sync when it ends.
}

void GenerationService::syncRepository(std::int64_t projectId, JobContext& job) {
  for (int round = 0; round < 20; ++round) {
    auto wanted = context_.db().exec("SELECT sync_wanted FROM generation_runs WHERE project_id = $1", {projectId});
    std::int64_t seen = wanted.empty() ? 0 : wanted[0].int64("sync_wanted");
    if (!syncOnce(projectId, job)) return;
    // Pushes that came in meanwhile leave sync_wanted changed: one more round covers them all.
    if (context_.db().exec("UPDATE generation_runs SET sync_wanted = 0 WHERE project_id = $1 AND sync_wanted = $2",
                           {projectId, seen}).affectedRows() > 0 || seen == 0)
      return;
  }
}

bool GenerationService::syncOnce(std::int64_t projectId, JobContext& job) {
  auto* projects = context_.findService<Projects>();
  auto* pages = context_.findService<Pages>();
  if (!pages) throw std::runtime_error("the pages plugin is not running");
  auto project = projects->find(projectId);
  if (!project) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  fs::path source = dir / "source";
  if (!fs::exists(source / ".git") || project->commitHash.empty()) {
    queueStage(projectId, "clone");
    return false;
  }
  if (!setStatus(projectId, "DOC_UPDATING")) throw ProjectGone();
  failIfAsked("sync", "PULL_FAIL");
  std::string before = project->commitHash;
  // Milliseconds per step, logged with the result: where a slow sync spends its time.
  nlohmann::json steps = nlohmann::json::object();
  auto stepStarted = std::chrono::steady_clock::now();
  auto step = [&](const char* name) {
    auto now = std::chrono::steady_clock::now();
    steps[name] = std::chrono::duration_cast<std::chrono::milliseconds>(now - stepStarted).count();
    stepStarted = now;
  };
  std::optional<GitCredentials> credentials;
  try {
    credentials = credentialsFor(projectId);
  } catch (const std::exception& error) {
    throw StageFailure("PULL_FAIL", error.what());
  }
  // Checked again (the rules may have changed since the clone), and pinned like the clone.
  auto checked = checkCloneUrl(project->gitUrl, settings_.clonePolicy);
  if (checked.refused) throw StageFailure("PULL_FAIL", *checked.refused);
  auto fetched = fetchLatest(source.string(), checked.target, credentials, settings_.gitLimits, [&] {
    job.heartbeat();
    return job.stopping();
  });
  if (!fetched.ok) {
    if (job.stopping()) throw std::runtime_error("shutting down; the sync resumes on restart");
    throw StageFailure("PULL_FAIL", fetched.error);
  }
  if (fetched.commit == before) {
    setStatus(projectId, "DOC_SUCCESS", "up to date at " + before);
    return true;
  }
  auto changes = changedFiles(source.string(), before, fetched.commit);
  step("fetch_and_diff");
  std::set<std::string> changed, deleted;
  bool structure = false;
  for (const auto& change : changes) {
    if (change.status == 'D') deleted.insert(change.path);
    else changed.insert(change.path);
    if (change.status == 'R') deleted.insert(change.oldPath);
    if (change.status != 'M') structure = true;
  }

  // The analysis again (ctags over the tree); the pages are rewritten only where needed.
  InventoryLimits limits;
  limits.maxFiles = settings_.maxFiles;
  limits.checkpoint = [&] {
    job.heartbeat();
    if (job.stopping()) throw std::runtime_error("shutting down; the sync resumes on restart");
    if (!projectExists(projectId)) throw ProjectGone();
  };
  auto inventory = takeInventory(source.string(), limits);
  step("inventory");
  AnalysisOptions options;
  options.ctags = settings_.ctags;
  // Only the files the diff names are analysed again; the rest come from the last run.
  auto previous = analysisCache_.read(dir / "analysis.json");  // null: a full analysis
  step("read_analysis");
  std::set<std::string> touched = changed;
  touched.insert(deleted.begin(), deleted.end());
  if (previous) {
    options.previous = previous.get();
    options.changed = &touched;
  }
  auto fresh = analyze(source.string(), inventory, options);
  fresh.name = project->name;
  step("analyze");
  auto stored = std::make_shared<const Analysis>(std::move(fresh));
  const Analysis& analysis = *stored;
  writeAtomically(dir / "analysis.json", analysis.toJsonText());
  analysisCache_.remember(dir / "analysis.json", stored);
  step("write_analysis");
  PlanOptions planOptions;
  if (fs::exists(source / ".docs" / "wiki.json")) planOptions.wikiJson = readText(source / ".docs" / "wiki.json");
  planOptions.sourceRoot = source.string();
  auto plan = planTopics(analysis, planOptions);
  std::string language = project->language.empty() ? "en" : project->language;
  auto drafts = planPages(analysis, plan, language);
  step("plan");

  std::map<std::string, std::int64_t> ids;
  std::map<std::string, std::string> digests;
  for (auto row : context_.db().exec("SELECT key, page_id, written_digest FROM generation_pages WHERE project_id = $1", {projectId})) {
    ids[row.text("key")] = row.int64("page_id");
    digests[row.text("key")] = row.text("written_digest");
  }
  std::map<std::string, const PageDraft*> byKey;
  for (const auto& draft : drafts) byKey[draft.key] = &draft;
  // What to rewrite: pages of changed files, the topics above them, and the overview when
  // files came or went or the README changed.
  std::set<std::string> rewrite;
  for (const auto& path : changed) {
    for (const std::string& key : {"file:" + path, "guide:" + path})
      for (auto found = byKey.find(key); found != byKey.end(); found = byKey.find(found->second->parentKey)) {
        rewrite.insert(found->first);
        if (found->second->parentKey.empty()) break;
      }
    auto name = fs::path(path).filename().string();
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name.rfind("readme", 0) == 0) structure = true;
  }
  if (structure) {
    // Files came or went, or the README changed: the pages drawn from the whole tree.
    for (const char* key : {"overview", "getting-started", "guides"}) rewrite.insert(key);
  }
  if (!changed.empty() || structure) rewrite.insert("concepts");  // usage counts move with any change
  std::set<std::int64_t> existing;  // one query, not one per page
  for (const auto& page : pages->listProject(projectId)) existing.insert(page.id);
  for (const auto& draft : drafts)
    if (!ids.count(draft.key) || !existing.count(ids[draft.key])) rewrite.insert(draft.key);  // new pages

  step("find_pages");
  std::string compareUrl = project->gitUrl + "/compare/" + before + "..." + fetched.commit;
  auto notice = [&](const std::string& what) {
    return nlohmann::json{
        {"type", "doc"},
        {"content",
         {{{"type", "alert"},
           {"attrs", {{"type", "warning"}}},
           {"content",
            {{{"type", "paragraph"},
              {"content",
               {{{"type", "text"}, {"text", what + " (commit " + fetched.commit.substr(0, 12) + "). This page was edited here, so it was not rewritten. "}},
                {{"type", "text"}, {"text", "View the changes"}, {"marks", {{{"type", "link"}, {"attrs", {{"href", compareUrl}}}}}}}}}}}}}}}};
  };

  WriterContext writer;
  writer.language = language;
  writer.sourceRoot = source.string();
  writer.sourceUrl = [gitUrl = project->gitUrl, commit = fetched.commit](const std::string& path, int from, int to) {
    return sourceLineUrl(gitUrl, commit, path, from, to);
  };
  writer.pageHref = [&](const std::string& key) {
    auto found = ids.find(key);
    return found == ids.end() ? std::string() : "/projects/" + std::to_string(projectId) + "/" + std::to_string(found->second);
  };
  int rewritten = 0, added = 0, removed = 0, kept = 0;
  // Parents before children, so a new page's parent exists.
  for (const auto& draft : drafts) {
    if (!rewrite.count(draft.key)) continue;
    auto known = ids.find(draft.key);
    bool exists = known != ids.end() && existing.count(known->second);
    if (!exists) {
      std::int64_t parent = draft.parentKey.empty() ? 0 : ids.count(draft.parentKey) ? ids[draft.parentKey] : 0;
      context_.db().transaction([&](Tx& tx) {
        ids[draft.key] = pages->create(tx, projectId, parent, draft.title.substr(0, 120), draft.type);
        tx.exec("INSERT INTO generation_pages (project_id, key, page_id) VALUES ($1, $2, $3)"
                " ON CONFLICT (project_id, key) DO UPDATE SET page_id = EXCLUDED.page_id, written_digest = ''",
                {projectId, draft.key, ids[draft.key]});
      });
      digests[draft.key] = "";
      ++added;
    }
  }
  for (auto& draft : drafts) {
    if (!rewrite.count(draft.key)) continue;
    std::int64_t pageId = ids[draft.key];
    const std::string& written = digests[draft.key];
    // Labelled versions before and after the sync writes, so its changes can be read and undone.
    std::string commitLabel = fetched.commit.substr(0, 12);
    bool existed = existing.count(pageId) > 0;
    if (existed) labelVersion(context_, pageId, "Before sync to " + commitLabel);
    if (!written.empty() && currentDigest(context_, pageId) != written) {
      appendToPage(context_, pageId, notice("The source of this page changed"));
      labelVersion(context_, pageId, "Sync to " + commitLabel);
      ++kept;
      continue;
    }
    PageDraft copy = draft;
    writePage(copy, analysis, plan, writer);
    if (!replacePageContent(context_, pageId, copy.content)) continue;  // deleted meanwhile
    labelVersion(context_, pageId, "Sync to " + commitLabel);
    context_.db().exec("UPDATE generation_pages SET written_digest = $3 WHERE project_id = $1 AND key = $2",
                       {projectId, draft.key, contentDigest(copy.content)});
    ++rewritten;
    if (rewritten % 50 == 0) job.heartbeat();
  }
  // Pages of files and guides that are gone (a person's edits keep a page, with a notice).
  for (const auto& [key, pageId] : ids) {
    if ((key.rfind("file:", 0) != 0 && key.rfind("guide:", 0) != 0) || byKey.count(key)) continue;
    if (!existing.count(pageId)) continue;
    if (!digests[key].empty() && currentDigest(context_, pageId) != digests[key]) {
      labelVersion(context_, pageId, "Before sync to " + fetched.commit.substr(0, 12));
      appendToPage(context_, pageId, notice("The file of this page was deleted from the repository"));
      labelVersion(context_, pageId, "Sync to " + fetched.commit.substr(0, 12));
      ++kept;
      continue;
    }
    pages->remove(pageId);
    context_.db().exec("DELETE FROM generation_pages WHERE project_id = $1 AND key = $2", {projectId, key});
    ++removed;
  }
  step("write_pages");
  context_.logger().info("synced", {{"project_id", projectId}, {"commit", fetched.commit}, {"rewritten", rewritten},
                                    {"added", added}, {"removed", removed}, {"kept", kept}, {"ms", steps}});
  if (!projects->setCommitHash(projectId, fetched.commit)) throw ProjectGone();
  setStatus(projectId, "DOC_SUCCESS",
            "synced " + fetched.commit + ": " + std::to_string(rewritten) + " pages rewritten, " + std::to_string(added) +
                " added, " + std::to_string(removed) + " removed, " + std::to_string(kept) + " kept for their edits");
  context_.events().publish(kAnalysisChangedEvent, {{"project_id", projectId}});
  return true;
}

void GenerationService::reconcileRepositories() {
  auto* projects = context_.findService<Projects>();
  if (!projects) return;
  // Settled for at least one period: a push being handled right now is left alone.
  for (auto row : context_.db().exec("SELECT project_id FROM generation_runs WHERE stage IN ('DOC_SUCCESS', 'PULL_FAIL')"
                                     " AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT 200",
                                     {static_cast<std::int64_t>(settings_.reconcileSeconds)})) {
    auto id = row.int64("project_id");
    auto project = projects->find(id);
    if (!project || project->type != "github" || project->commitHash.empty()) continue;
    auto checked = checkCloneUrl(project->gitUrl, settings_.clonePolicy);
    if (checked.refused) continue;  // the sync it would start fails with the reason
    auto head = remoteHead(checked.target, credentialsFor(id), settings_.gitLimits);
    if (head && *head != project->commitHash) {
      context_.logger().info("the repository moved on without a push reaching us", {{"project_id", id}});
      requestSync(id);
    }
  }
}

bool GenerationService::isFailedStatus(const std::string& status) {
  static const std::set<std::string> failed = {"CLONE_FAIL", "PULL_FAIL", "DOC_FILE_OVERVIEWS_FAILED", "DOC_PROJECT_OVERVIEW_FAILED",
                                               "DOC_TOPICS_FAILED", "DOC_TOPIC_PAGES_FAILED", "DOC_FILE_PAGES_FAILED", "DOC_FAILURE"};
  return failed.count(status) > 0;
}

std::string GenerationService::retry(std::int64_t projectId) {
  auto* projects = context_.findService<Projects>();
  auto project = projects ? projects->find(projectId) : std::nullopt;
  if (!project) throw HttpError(404, "not_found", "Project not found");
  if (!isFailedStatus(project->status))
    throw HttpError(409, "not_failed", "The project's generation has not failed (" + project->status + "): there is nothing to retry");
  bool repository = project->type == "github";
  bool synced = repository && !project->commitHash.empty();
  std::string stage;
  if (project->status == "CLONE_FAIL") stage = repository ? "clone" : "unpack";
  else if (project->status == "PULL_FAIL" || (project->status == "DOC_FAILURE" && synced)) stage = "sync";
  else if (fs::is_directory(fs::path(projectDir(projectId)) / "source")) stage = "analyze";  // the analysis and the pages again
  else stage = repository ? "clone" : "unpack";  // the sources went: fetch them first
  // The run shows as started at once (the job may wait for a worker); its own statuses follow.
  if (stage == "clone" || stage == "unpack") setStatus(projectId, "REQUEST_TO_CLONE", "retried");
  else if (stage == "analyze") setStatus(projectId, "DOC_PENDING", "retried");
  else setStatus(projectId, "DOC_UPDATING", "retried");
  queueStage(projectId, stage);
  context_.logger().info("generation retried", {{"project_id", projectId}, {"from", project->status}, {"stage", stage}});
  return stage;
}

nlohmann::json GenerationService::describe(std::int64_t projectId) {
  nlohmann::json out = {{"history", nlohmann::json::array()}};
  auto* projects = context_.findService<Projects>();
  if (auto project = projects ? projects->find(projectId) : std::nullopt) {
    out["status"] = project->status;
    out["failed"] = isFailedStatus(project->status);
  }
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
