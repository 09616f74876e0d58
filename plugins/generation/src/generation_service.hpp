#pragma once
// Runs the pipeline for projects in the server: one job per stage (unpack, analyze,
// write), each idempotent and resumable on any node, advancing the project's status
// through the spec's values and recording each in generation_status_log.

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <docs/metrics.hpp>
#include <docs/services/projects.hpp>

#include "analysis/analysis_cache.hpp"
#include "generation_services.hpp"
#include "generation_settings.hpp"
#include "project_status.hpp"
#include "sources/git_source.hpp"
#include "stage_progress.hpp"

#include <nlohmann/json.hpp>

namespace docs {
class Context;
class JobContext;
}  // namespace docs

namespace docs_generation {

class GenerationService {
 public:
  // Built in configure(): no I/O until a job, an event or start() calls it.
  GenerationService(docs::Context& context, const GenerationServices& services, GenerationSettings settings);

  // A ZIP was uploaded: queue its generation.
  void onZipUploaded(std::int64_t projectId);
  // A project was created: a repository project starts cloning.
  void onProjectCreated(std::int64_t projectId);
  // A push reached the repository's default branch: sync once the project is settled;
  // pushes during a sync make it run once more.
  void requestSync(std::int64_t projectId);
  // Repository projects whose remote moved on while no push arrived (the server was down).
  void reconcileRepositories();
  // The project is gone: drop its files and bookkeeping (running jobs stop by themselves).
  void onProjectDeleted(std::int64_t projectId);
  // Starts runs whose upload event was lost (a crash between storing the upload and
  // queueing its job): uploads still IDLE, or REQUEST_TO_CLONE for a minute with no job.
  void recoverLostUploads();
  void runStage(docs::JobContext& job);
  // {"status", "stage", "message", "failed", "history": [{"status", "message", "at"}]};
  // "failed": the last run stopped at a failure and nothing runs now (retry() starts it again).
  nlohmann::json describe(std::int64_t projectId);
  // Runs a failed project's pipeline again from the stage that failed (the clone or
  // unpack, the analysis and pages, or the sync), keeping what was written. Returns the
  // stage queued; throws HttpError 409 `not_failed` when the project is not stopped at a
  // failure (it runs, or it succeeded).
  std::string retry(std::int64_t projectId);
  static constexpr const char* kJobKind = "generation.stage";
  // Where the project's unpacked or checked-out sources are (they may not exist yet).
  std::string sourceRoot(std::int64_t projectId) const { return projectDir(projectId) + "/source"; }

 private:
  // The stages a run goes through (a job each), the values of the stage label.
  static inline const std::set<std::string> kStages = {"unpack", "clone", "sync", "analyze", "write"};
  std::string projectDir(std::int64_t projectId) const;
  bool setStatus(std::int64_t projectId, Status status, const std::string& message = "");
  void queueStage(std::int64_t projectId, const std::string& stage);
  void unpack(std::int64_t projectId, docs::JobContext& job);
  void cloneSources(std::int64_t projectId, docs::JobContext& job);
  void syncRepository(std::int64_t projectId, docs::JobContext& job);
  // One sync: fetch, diff, rewrite what changed. False when the clone is missing.
  bool syncOnce(std::int64_t projectId, docs::JobContext& job);
  // Fetches the repository's default branch into the clone; its commit.
  std::string fetchForSync(std::int64_t projectId, const docs::ProjectSummary& project, docs::JobContext& job);
  // The installation token for a repository project, when the GitHub App reaches it.
  std::optional<GitCredentials> credentialsFor(std::int64_t projectId);
  void analyzeSources(std::int64_t projectId);
  void writePages(std::int64_t projectId, docs::JobContext& job);
  void failIfAsked(const std::string& stage, Status failedStatus);
  bool projectExists(std::int64_t projectId);
  // When this run's analysis and writing must end (generation.max_run_seconds), counted
  // from its DOC_PENDING status so that a resumed stage does not start the clock again.
  RunClock runClock(std::int64_t projectId);

  docs::Context& context_;
  const GenerationServices& services_;
  GenerationSettings settings_;
  docs::Counter& stageRuns_;
  docs::Histogram& stageSeconds_;
  AnalysisCache analysisCache_;
};

}  // namespace docs_generation
