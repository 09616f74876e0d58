#pragma once
// The server stages' view of a pipeline run (Progress in pipeline/pipeline.hpp): the job's
// lease is kept, and a shutdown, a deleted project or the end of the run's time stops it;
// the write stage's phases are project statuses.

#include <chrono>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/pipeline.hpp"
#include "project_status.hpp"

namespace docs {
class JobContext;
}

namespace docs_generation {

// When a run's analysis and writing must end (generation.max_run_seconds).
struct RunClock {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  int maxRunSeconds = 0;
  // Throws StageFailure(`failed`) once the deadline has passed.
  void check(Status failed) const;
};

// Milliseconds per step of a sync, logged with its result: where a slow sync spends its time.
class StepTimes {
 public:
  void mark(const char* name);
  const nlohmann::json& json() const { return steps_; }

 private:
  nlohmann::json steps_ = nlohmann::json::object();
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

// Hears nothing: the stages override what they need.
class QuietProgress : public Progress {
 public:
  void step(PipelineStep, std::size_t) override {}
  void analysing(const std::string&, std::size_t, std::size_t) override {}
  void checkpoint() override {}
  void beforePage() override {}
  void pageWritten(std::size_t, std::size_t) override {}
  void modelFellBack(const PageDraft&, const std::string&, const std::string&) override {}
};

// The analyze stage: a deleted project stops it, a run over its time fails it.
class AnalyzeProgress final : public QuietProgress {
 public:
  AnalyzeProgress(std::function<bool()> projectExists, RunClock clock);
  void checkpoint() override;

 private:
  std::function<bool()> projectExists_;
  RunClock clock_;
};

// A sync: the lease is kept; a shutdown or a deleted project stops the analysis. While
// pages are written, the lease is renewed every 50 pages.
class SyncProgress final : public QuietProgress {
 public:
  SyncProgress(docs::JobContext& job, std::function<bool()> projectExists, StepTimes& times);
  void step(PipelineStep step, std::size_t count) override;
  void checkpoint() override;

 private:
  docs::JobContext& job_;
  std::function<bool()> projectExists_;
  StepTimes& times_;
  bool writing_ = false;
  std::size_t pages_ = 0;
};

// The write stage: each phase is a project status and a place generation.fail_stage can
// fail; the lease is renewed and a shutdown, a deleted project or the end of the run's
// time stops it (after every page with a model, else every 50 pages).
class WriteProgress final : public QuietProgress {
 public:
  // Sets the project's status (throws ProjectGone when it went), then fails the phase when
  // generation.fail_stage names it.
  using Advance = std::function<void(Status running, const char* phase)>;
  using FellBack = std::function<void(const PageDraft& page, const std::string& problem)>;
  WriteProgress(docs::JobContext& job, Advance advance, std::function<bool()> projectExists, RunClock clock,
                bool everyPage, FellBack fellBack);
  void step(PipelineStep step, std::size_t count) override;
  void checkpoint() override;
  void beforePage() override { clock_.check(failedStatus()); }
  void modelFellBack(const PageDraft& page, const std::string&, const std::string& problem) override {
    fellBack_(page, problem);
  }
  // The failure of the phase that runs (DOC_FAILURE once the pages are all written).
  Status failedStatus() const;
  void succeeded() { running_ = Status::DocSuccess; }

 private:
  void enter(Status running, const char* phase);

  docs::JobContext& job_;
  Advance advance_;
  std::function<bool()> projectExists_;
  RunClock clock_;
  bool everyPage_;
  FellBack fellBack_;
  Status running_ = Status::ProjectOverviewGenerating;
  std::size_t pages_ = 0;
};

}  // namespace docs_generation
