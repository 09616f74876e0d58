#include "generation_service.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/http.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>
#include <docs/topics.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <thread>

#include "analysis/analysis.hpp"
#include "pipeline/pipeline.hpp"
#include "pipeline/server_sink.hpp"
#include "sources/source_archive.hpp"
#include "stage_outcome.hpp"
#include "stage_progress.hpp"

namespace fs = std::filesystem;

namespace docs_generation {

using docs::Context;
using docs::Counter;
using docs::DbError;
using docs::endsRun;
using docs::failedFor;
using docs::Histogram;
using docs::HttpError;
using docs::JobContext;
using docs::JobSpec;
using docs::kAnalysisChanged;
using docs::parseProjectStatus;
using docs::Principal;
using docs::ProjectSummary;
using docs::toString;

namespace {

constexpr int kAttempts = 3;

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

}  // namespace

GenerationService::GenerationService(Context& context, const GenerationServices& services, GenerationSettings settings)
    : context_(context),
      services_(services),
      settings_(std::move(settings)),
      stageRuns_(context.metrics().counter("docsd_generation_stages_total",
                                           "Generation stages run, by stage and outcome (done, failed, retry, gone).",
                                           {"stage", "outcome"})),
      stageSeconds_(context.metrics().histogram("docsd_generation_stage_seconds",
                                                "Time one generation stage ran, by stage.", {"stage"},
                                                {0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600})) {}

std::string GenerationService::projectDir(std::int64_t projectId) const {
  return (fs::path(context_.dataDir()) / "generation" / std::to_string(projectId)).string();
}

bool GenerationService::setStatus(std::int64_t projectId, Status status, const std::string& message) {
  auto& projects = *services_.projects;
  if (!projects.find(projectId)) return false;
  std::string name(toString(status));
  // History first: whoever sees the project's new status finds it in the history too.
  context_.db().exec("INSERT INTO generation_status_log (project_id, status, message) VALUES ($1, $2, $3)",
                     {projectId, name, message});
  context_.db().exec(
      "INSERT INTO generation_runs (project_id, stage, message) VALUES ($1, $2, $3)"
      " ON CONFLICT (project_id) DO UPDATE SET stage = $2, message = $3, updated_at = now(),"
      " finished_at = CASE WHEN $4 THEN now() END",
      {projectId, name, message, endsRun(status)});
  if (!projects.setStatus(projectId, status)) return false;
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
  auto project = services_.projects->find(projectId);
  if (project && parseProjectStatus(project->status) == Status::RequestToClone) {
    queueStage(projectId, "unpack");
    return;
  }
  if (!setStatus(projectId, Status::RequestToClone)) return;
  queueStage(projectId, "unpack");
}

void GenerationService::onProjectCreated(std::int64_t projectId) {
  auto project = services_.projects->find(projectId);
  if (!project || project->type != "github" || project->gitUrl.empty() ||
      parseProjectStatus(project->status) != Status::RequestToClone)
    return;
  // The projects plugin set the status: only the bookkeeping is written here.
  std::string requested(toString(Status::RequestToClone));
  context_.db().exec(
      "INSERT INTO generation_runs (project_id, stage, message) VALUES ($1, $2, '')"
      " ON CONFLICT (project_id) DO NOTHING",
      {projectId, requested});
  context_.db().exec("INSERT INTO generation_status_log (project_id, status, message) VALUES ($1, $2, '')",
                     {projectId, requested});
  queueStage(projectId, "clone");
}

void GenerationService::recoverLostUploads() {
  auto& projects = *services_.projects;
  for (auto id : projects.uploadsInStatus(Status::Idle, 100)) {  // uploaded, no run yet (the projects plugin's status)
    context_.logger().info("starting the generation of an upload whose event was lost", {{"project_id", id}});
    onZipUploaded(id);
  }
  std::string requested(toString(Status::RequestToClone));
  for (auto id : projects.uploadsInStatus(Status::RequestToClone, 100)) {
    // A pending job for it keeps its dedupe key, so queueing again is harmless; only
    // requests older than a minute are looked at, to leave in-flight events alone.
    auto stale = context_.db().exec(
        "SELECT 1 FROM generation_runs WHERE project_id = $1 AND stage = $2"
        " AND updated_at < now() - interval '1 minute'",
        {id, requested});
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
  return services_.projects->find(projectId).has_value();
}

RunClock GenerationService::runClock(std::int64_t projectId) {
  RunClock clock;
  clock.maxRunSeconds = settings_.maxRunSeconds;
  if (settings_.maxRunSeconds <= 0) return clock;
  auto rows = context_.db().exec(
      "SELECT COALESCE(floor(extract(epoch FROM now() - max(at)) * 1000), 0)::bigint AS ms"
      " FROM generation_status_log WHERE project_id = $1 AND status = $2",
      {projectId, std::string(toString(Status::DocPending))});
  std::int64_t elapsedMs = rows.empty() ? 0 : rows[0].int64("ms");
  clock.deadline = std::chrono::steady_clock::now() +
                   std::chrono::milliseconds(std::int64_t{settings_.maxRunSeconds} * 1000 - elapsedMs);
  return clock;
}

void GenerationService::failIfAsked(const std::string& stage, Status failedStatus) {
  if (!settings_.failStage.empty() && settings_.failStage == stage)
    throw StageFailure(failedStatus, "failure forced by generation.fail_stage=" + stage);
}

void GenerationService::runStage(JobContext& job) {
  std::int64_t projectId = job.payload().at("project_id").get<std::int64_t>();
  std::string stage = job.payload().at("stage").get<std::string>();
  std::error_code ignored;
  if (!services_.projects->find(projectId)) {
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
  Status failureStatus = failedAtStage(stage);
  try {
    if (stage == "unpack") unpack(projectId, job);
    else if (stage == "clone") cloneSources(projectId, job);
    else if (stage == "sync") syncRepository(projectId, job);
    else if (stage == "analyze") analyzeSources(projectId);
    else if (stage == "write") writePages(projectId, job);
    else throw StageFailure(Status::DocFailure, "unknown stage " + stage);
    metrics.outcome = "done";
  } catch (const ProjectGone&) {
    metrics.outcome = "gone";
    // The delete handler removed the folder, but a transfer may have written into it since.
    fs::remove_all(projectDir(projectId), ignored);
    context_.logger().info("generation stopped: the project was deleted",
                           {{"project_id", projectId}, {"stage", stage}});
  } catch (const StageFailure& failure) {
    metrics.outcome = "failed";
    if (!projectExists(projectId)) {  // it failed because the project went (its upload was deleted)
      metrics.outcome = "gone";
      fs::remove_all(projectDir(projectId), ignored);
      context_.logger().info("generation stopped: the project was deleted",
                             {{"project_id", projectId}, {"stage", stage}});
      return;
    }
    context_.logger().warn("generation failed",
                           {{"project_id", projectId}, {"stage", stage}, {"error", failure.what()}});
    setStatus(projectId, failure.status, failure.what());
  } catch (const std::exception& error) {
    if (job.attempt() < kAttempts) throw;  // retried with backoff
    metrics.outcome = "failed";
    // The failure of the status the run had reached, else of the stage.
    Status status = failureStatus;
    if (auto row = context_.db().exec("SELECT stage FROM generation_runs WHERE project_id = $1", {projectId});
        !row.empty())
      status = failedFrom(row[0].text("stage"), failureStatus);
    context_.logger().error("generation failed",
                            {{"project_id", projectId}, {"stage", stage}, {"error", error.what()}});
    setStatus(projectId, status, error.what());
  }
}

void GenerationService::unpack(std::int64_t projectId, JobContext& job) {
  std::string archive = services_.projects->uploadedArchive(projectId);
  if (!setStatus(projectId, Status::Cloning)) throw ProjectGone();
  failIfAsked("unpack", Status::CloneFail);
  if (archive.empty() || !fs::exists(archive)) throw StageFailure(Status::CloneFail, "No uploaded archive was found");
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
    throw StageFailure(Status::CloneFail, result.error);
  }
  if (!setStatus(projectId, Status::CloneSuccess, std::to_string(result.files) + " files unpacked"))
    throw ProjectGone();
  queueStage(projectId, "analyze");
}

void GenerationService::cloneSources(std::int64_t projectId, JobContext& job) {
  auto& projects = *services_.projects;
  auto project = projects.find(projectId);
  if (!project) throw ProjectGone();
  if (!setStatus(projectId, Status::Cloning)) throw ProjectGone();
  failIfAsked("clone", Status::CloneFail);
  // The addresses checked here are the ones the clone connects to (no second lookup).
  auto checked = checkCloneUrl(project->gitUrl, settings_.clonePolicy);
  if (checked.refused) throw StageFailure(Status::CloneFail, *checked.refused);
  fs::path dir = projectDir(projectId);
  fs::create_directories(dir);
  fs::path source = dir / "source";
  std::error_code ignored;
  fs::remove_all(source, ignored);  // a resumed clone starts over
  std::optional<GitCredentials> credentials;
  try {
    credentials = credentialsFor(projectId);
  } catch (const std::exception& error) {
    throw StageFailure(Status::CloneFail, error.what());
  }
  StopWatch stop(job, [&] { return !projectExists(projectId); });
  auto result = cloneRepository(checked.target, source.string(), credentials, settings_.gitLimits, std::ref(stop));
  if (!result.ok) {
    if (stop.projectGone() || !projectExists(projectId)) throw ProjectGone();
    if (job.stopping()) throw std::runtime_error("shutting down; the clone resumes on restart");
    throw StageFailure(Status::CloneFail, result.error);
  }
  if (!projects.setCommitHash(projectId, result.commit)) throw ProjectGone();
  if (!setStatus(projectId, Status::CloneSuccess, "commit " + result.commit + " of " + result.branch))
    throw ProjectGone();
  queueStage(projectId, "analyze");
}

void GenerationService::analyzeSources(std::int64_t projectId) {
  if (!setStatus(projectId, Status::DocPending)) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  fs::path source = dir / "source";
  if (!fs::is_directory(source)) throw StageFailure(Status::FileOverviewsFailed, "The project's sources are missing");
  if (!setStatus(projectId, Status::FileOverviewsGenerating)) throw ProjectGone();
  failIfAsked("analyze", Status::FileOverviewsFailed);
  // Between batches of ctags: a deleted project stops, a run over its time fails.
  AnalyzeProgress progress([&] { return projectExists(projectId); }, runClock(projectId));
  Analysis analysis;
  try {
    analysis = analyzeTree(source.string(), {settings_.maxFiles, settings_.ctags, nullptr, nullptr}, progress);
  } catch (const CtagsFailed& failed) {
    // Without symbols the pages would miss every API table: a failed stage, not a thin success.
    throw StageFailure(Status::FileOverviewsFailed, failed.what());
  }
  auto project = services_.projects->find(projectId);
  if (!project) throw ProjectGone();
  analysis.name = project->name;
  writeAtomically(dir / "analysis.json", analysis.toJsonText());
  analysisCache_.remember(dir / "analysis.json", std::make_shared<const Analysis>(std::move(analysis)));
  queueStage(projectId, "write");
}

void GenerationService::writePages(std::int64_t projectId, JobContext& job) {
  auto project = services_.projects->find(projectId);
  if (!project) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  auto analyzed = analysisCache_.read(dir / "analysis.json");
  if (!analyzed)
    throw std::runtime_error("the analysis of project " + std::to_string(projectId) + " is missing or damaged");
  // Page ids of earlier attempts are reused, so a resumed run writes no duplicates.
  FirstRunSink sink(context_, services_, projectId, project->commitHash);
  WriteProgress progress(
      job,
      [&](Status running, const char* phase) {
        if (!setStatus(projectId, running)) throw ProjectGone();
        failIfAsked(phase, *failedFor(running));
      },
      [&] { return projectExists(projectId); }, runClock(projectId), settings_.model.configured(),
      [&](const PageDraft& page, const std::string& problem) {
        context_.logger().warn("the model's page was not used; the offline page stays",
                               {{"project_id", projectId}, {"page", page.key}, {"why", problem}});
      });
  try {
    SourceTree sources{(dir / "source").string(), project->language.empty() ? "en" : project->language, project->gitUrl,
                       project->commitHash, projectId};
    auto result = Pipeline({settings_.model, settings_.maxModelPages}).run(sources, *analyzed, sink, progress);
    progress.succeeded();
    if (!setStatus(projectId, Status::DocSuccess,
                   settings_.model.configured()
                       ? "the model wrote " + std::to_string(result.modelUsed) + " file openings; " +
                             std::to_string(result.modelFellBack) + " fell back to the offline writer"
                       : "offline writer"))
      throw ProjectGone();
    docs::publish(context_.events(), kAnalysisChanged, {projectId});
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
    throw StageFailure(progress.failedStatus(), error.what());
  }
}

std::optional<GitCredentials> GenerationService::credentialsFor(std::int64_t projectId) {
  auto* github = services_.github.get();
  if (!github || !github->configured()) return std::nullopt;
  auto& projects = *services_.projects;
  auto project = projects.find(projectId);
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
    // Only if still unset: a webhook that stored (or cleared) one meanwhile knows better.
    if (!projects.setInstallation(projectId, installation, 0)) {
      auto now = projects.find(projectId);
      if (!now) return std::nullopt;
      if (now->installationId <= 0) return std::nullopt;  // removed meanwhile: a public clone
      installation = now->installationId;
    }
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
  auto project = services_.projects->find(projectId);
  if (!project || project->type != "github") return;
  context_.db().exec(
      "INSERT INTO generation_runs (project_id, stage, sync_wanted) VALUES ($1, $2, 1)"
      " ON CONFLICT (project_id) DO UPDATE SET sync_wanted = generation_runs.sync_wanted + 1",
      {projectId, project->status});
  // A first run that failed before its pages were all written starts over from the new
  // commit (its pages are remembered: the new run writes no duplicates).
  auto current = parseProjectStatus(project->status);
  auto push = current ? onPush(*current) : OnPush::Wait;
  if (push == OnPush::StartOver) {
    if (current != Status::CloneFail) setStatus(projectId, Status::RequestToClone, "a push starts the failed run over");
    queueStage(projectId, "clone");
  } else if (push == OnPush::Sync) {
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
    if (context_.db()
                .exec("UPDATE generation_runs SET sync_wanted = 0 WHERE project_id = $1 AND sync_wanted = $2",
                      {projectId, seen})
                .affectedRows() > 0 ||
        seen == 0)
      return;
  }
}

bool GenerationService::syncOnce(std::int64_t projectId, JobContext& job) {
  auto& projects = *services_.projects;
  auto project = projects.find(projectId);
  if (!project) throw ProjectGone();
  fs::path dir = projectDir(projectId);
  fs::path source = dir / "source";
  if (!fs::exists(source / ".git") || project->commitHash.empty()) {
    queueStage(projectId, "clone");
    return false;
  }
  if (!setStatus(projectId, Status::DocUpdating)) throw ProjectGone();
  failIfAsked("sync", Status::PullFail);
  std::string before = project->commitHash;
  StepTimes steps;
  std::string commit = fetchForSync(projectId, *project, job);
  if (commit == before) {
    setStatus(projectId, Status::DocSuccess, "up to date at " + before);
    return true;
  }
  auto change = describePush(changedFiles(source.string(), before, commit), project->gitUrl, before, commit);
  steps.mark("fetch_and_diff");
  // The analysis again (ctags over the tree), only of the files the diff names; the rest
  // come from the last run. The pages are rewritten only where needed.
  SyncProgress progress(
      job, [&] { return projectExists(projectId); }, steps);
  auto previous = analysisCache_.read(dir / "analysis.json");  // null: a full analysis
  steps.mark("read_analysis");
  std::set<std::string> touched = change.changed;
  touched.insert(change.deleted.begin(), change.deleted.end());
  auto fresh = analyzeTree(source.string(), {settings_.maxFiles, settings_.ctags, previous.get(), &touched}, progress);
  fresh.name = project->name;
  steps.mark("analyze");
  auto analysis = std::make_shared<const Analysis>(std::move(fresh));
  writeAtomically(dir / "analysis.json", analysis->toJsonText());
  analysisCache_.remember(dir / "analysis.json", analysis);
  steps.mark("write_analysis");
  SyncSink sink(context_, services_, projectId, change, [&](const char* name) { steps.mark(name); });
  SourceTree sources{source.string(), project->language.empty() ? "en" : project->language, project->gitUrl, commit,
                     projectId};
  Pipeline(WriterSettings{}).run(sources, *analysis, sink, progress);  // a sync never asks the model
  steps.mark("write_pages");
  context_.logger().info("synced", {{"project_id", projectId},
                                    {"commit", commit},
                                    {"rewritten", sink.rewritten},
                                    {"added", sink.added},
                                    {"removed", sink.removed},
                                    {"kept", sink.kept},
                                    {"ms", steps.json()}});
  if (!projects.setCommitHash(projectId, commit)) throw ProjectGone();
  setStatus(projectId, Status::DocSuccess,
            "synced " + commit + ": " + std::to_string(sink.rewritten) + " pages rewritten, " +
                std::to_string(sink.added) + " added, " + std::to_string(sink.removed) + " removed, " +
                std::to_string(sink.kept) + " kept for their edits");
  docs::publish(context_.events(), kAnalysisChanged, {projectId});
  return true;
}

std::string GenerationService::fetchForSync(std::int64_t projectId, const ProjectSummary& project, JobContext& job) {
  std::optional<GitCredentials> credentials;
  try {
    credentials = credentialsFor(projectId);
  } catch (const std::exception& error) {
    throw StageFailure(Status::PullFail, error.what());
  }
  // Checked again (the rules may have changed since the clone), and pinned like the clone.
  auto checked = checkCloneUrl(project.gitUrl, settings_.clonePolicy);
  if (checked.refused) throw StageFailure(Status::PullFail, *checked.refused);
  auto fetched = fetchLatest((fs::path(projectDir(projectId)) / "source").string(), checked.target, credentials,
                             settings_.gitLimits, [&] {
                               job.heartbeat();
                               return job.stopping();
                             });
  if (!fetched.ok) {
    if (job.stopping()) throw std::runtime_error("shutting down; the sync resumes on restart");
    throw StageFailure(Status::PullFail, fetched.error);
  }
  return fetched.commit;
}

void GenerationService::reconcileRepositories() {
  auto& projects = *services_.projects;
  // Settled for at least one period: a push being handled right now is left alone.
  for (auto row :
       context_.db().exec("SELECT project_id FROM generation_runs WHERE stage IN ($2, $3)"
                          " AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT 200",
                          {static_cast<std::int64_t>(settings_.reconcileSeconds),
                           std::string(toString(Status::DocSuccess)), std::string(toString(Status::PullFail))})) {
    auto id = row.int64("project_id");
    auto project = projects.find(id);
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

std::string GenerationService::retry(std::int64_t projectId) {
  auto project = services_.projects->find(projectId);
  if (!project) throw HttpError(404, "not_found", "Project not found");
  if (!isFailedName(project->status))
    throw HttpError(409, "not_failed",
                    "The project's generation has not failed (" + project->status + "): there is nothing to retry");
  bool repository = project->type == "github";
  bool synced = repository && !project->commitHash.empty();
  auto status = parseProjectStatus(project->status);
  std::string stage;
  if (status == Status::PullFail || (status == Status::DocFailure && synced)) stage = "sync";
  else if (status != Status::CloneFail && fs::is_directory(fs::path(projectDir(projectId)) / "source"))
    stage = "analyze";                           // the analysis and the pages again
  else stage = repository ? "clone" : "unpack";  // a failed fetch, or the sources went: fetch them
  // The run shows as started at once (the job may wait for a worker); its own statuses follow.
  if (stage == "clone" || stage == "unpack") setStatus(projectId, Status::RequestToClone, "retried");
  else if (stage == "analyze") setStatus(projectId, Status::DocPending, "retried");
  else setStatus(projectId, Status::DocUpdating, "retried");
  queueStage(projectId, stage);
  context_.logger().info("generation retried",
                         {{"project_id", projectId}, {"from", project->status}, {"stage", stage}});
  return stage;
}

nlohmann::json GenerationService::describe(std::int64_t projectId) {
  nlohmann::json out = {{"history", nlohmann::json::array()}};
  if (auto project = services_.projects->find(projectId)) {
    out["status"] = project->status;
    out["failed"] = isFailedName(project->status);
  }
  for (auto row : context_.db().exec(
           "SELECT status, message, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS at"
           " FROM generation_status_log WHERE project_id = $1 ORDER BY id",
           {projectId}))
    out["history"].push_back(
        {{"status", row.text("status")}, {"message", row.text("message")}, {"at", row.text("at")}});
  if (auto run = context_.db().exec("SELECT stage, message FROM generation_runs WHERE project_id = $1", {projectId});
      !run.empty()) {
    out["stage"] = run[0].text("stage");
    out["message"] = run[0].text("message");
  }
  return out;
}

}  // namespace docs_generation
