#include "stage_progress.hpp"

#include <stdexcept>
#include <utility>

#include <docs/jobs.hpp>

#include "stage_outcome.hpp"

namespace docs_generation {

using docs::failedFor;
using docs::JobContext;

void RunClock::check(Status failed) const {
  if (std::chrono::steady_clock::now() > deadline)
    throw StageFailure(failed, "Generation took longer than this server allows (generation.max_run_seconds = " +
                                   std::to_string(maxRunSeconds) + ")");
}

void StepTimes::mark(const char* name) {
  auto now = std::chrono::steady_clock::now();
  steps_[name] = std::chrono::duration_cast<std::chrono::milliseconds>(now - started_).count();
  started_ = now;
}

AnalyzeProgress::AnalyzeProgress(std::function<bool()> projectExists, RunClock clock)
    : projectExists_(std::move(projectExists)), clock_(clock) {}

void AnalyzeProgress::checkpoint() {
  if (!projectExists_()) throw ProjectGone();
  clock_.check(Status::FileOverviewsFailed);
}

SyncProgress::SyncProgress(JobContext& job, std::function<bool()> projectExists, StepTimes& times)
    : job_(job), projectExists_(std::move(projectExists)), times_(times) {}

void SyncProgress::step(PipelineStep step, std::size_t) {
  if (step == PipelineStep::Analysis) times_.mark("inventory");
  if (step == PipelineStep::Writing) {
    times_.mark("plan");
    writing_ = true;
  }
}

void SyncProgress::checkpoint() {
  if (writing_) {
    if (++pages_ % 50 == 0) job_.heartbeat();
    return;
  }
  job_.heartbeat();
  if (job_.stopping()) throw std::runtime_error("shutting down; the sync resumes on restart");
  if (!projectExists_()) throw ProjectGone();
}

WriteProgress::WriteProgress(JobContext& job, Advance advance, std::function<bool()> projectExists, RunClock clock,
                             bool everyPage, FellBack fellBack)
    : job_(job),
      advance_(std::move(advance)),
      projectExists_(std::move(projectExists)),
      clock_(clock),
      everyPage_(everyPage),
      fellBack_(std::move(fellBack)) {}

void WriteProgress::enter(Status running, const char* phase) {
  running_ = running;
  advance_(running, phase);
  job_.heartbeat();
}

void WriteProgress::step(PipelineStep step, std::size_t) {
  switch (step) {
    case PipelineStep::Planning: return enter(Status::ProjectOverviewGenerating, "overview");
    case PipelineStep::Topics: return enter(Status::TopicsGenerating, "topics");
    case PipelineStep::TopicPages: return enter(Status::TopicPagesGenerating, "topic_pages");
    case PipelineStep::Subtopics: return enter(Status::SubtopicsGenerating, "subtopics");
    case PipelineStep::FilePages: return enter(Status::FilePagesGenerating, "file_pages");
    default: return;
  }
}

void WriteProgress::checkpoint() {
  if (!everyPage_ && ++pages_ % 50 != 0) return;
  job_.heartbeat();
  if (job_.stopping()) throw std::runtime_error("shutting down; the stage resumes on restart");
  if (!projectExists_()) throw ProjectGone();
  clock_.check(failedStatus());
}

Status WriteProgress::failedStatus() const { return failedFor(running_).value_or(Status::DocFailure); }

}  // namespace docs_generation
