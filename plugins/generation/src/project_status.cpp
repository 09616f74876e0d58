#include "project_status.hpp"

#include <array>

namespace docs::generation {
namespace {

struct StatusRow {
  Status status;
  std::string_view name;
  std::optional<Status> failsAs;  // set for the statuses of a running stage
  bool failed;
  OnPush push;
};

constexpr std::array<StatusRow, 20> kStatuses{{
    {Status::RequestToClone, "REQUEST_TO_CLONE", std::nullopt, false, OnPush::Wait},
    {Status::Cloning, "CLONING", Status::CloneFail, false, OnPush::Wait},
    {Status::CloneSuccess, "CLONE_SUCCESS", std::nullopt, false, OnPush::Wait},
    {Status::CloneFail, "CLONE_FAIL", std::nullopt, true, OnPush::StartOver},
    {Status::PullFail, "PULL_FAIL", std::nullopt, true, OnPush::Sync},
    {Status::DocPending, "DOC_PENDING", Status::FileOverviewsFailed, false, OnPush::Wait},
    {Status::FileOverviewsGenerating, "DOC_FILE_OVERVIEWS_GENERATING", Status::FileOverviewsFailed, false, OnPush::Wait},
    {Status::FileOverviewsFailed, "DOC_FILE_OVERVIEWS_FAILED", std::nullopt, true, OnPush::StartOver},
    {Status::ProjectOverviewGenerating, "DOC_PROJECT_OVERVIEW_GENERATING", Status::ProjectOverviewFailed, false, OnPush::Wait},
    {Status::ProjectOverviewFailed, "DOC_PROJECT_OVERVIEW_FAILED", std::nullopt, true, OnPush::StartOver},
    {Status::TopicsGenerating, "DOC_TOPICS_GENERATING", Status::TopicsFailed, false, OnPush::Wait},
    {Status::TopicsFailed, "DOC_TOPICS_FAILED", std::nullopt, true, OnPush::StartOver},
    {Status::TopicPagesGenerating, "DOC_TOPIC_PAGES_GENERATING", Status::TopicPagesFailed, false, OnPush::Wait},
    {Status::TopicPagesFailed, "DOC_TOPIC_PAGES_FAILED", std::nullopt, true, OnPush::StartOver},
    // The spec has no DOC_SUBTOPICS_FAILED.
    {Status::SubtopicsGenerating, "DOC_SUBTOPICS_GENERATING", Status::DocFailure, false, OnPush::Wait},
    {Status::FilePagesGenerating, "DOC_FILE_PAGES_GENERATING", Status::FilePagesFailed, false, OnPush::Wait},
    // The pages are all there: a push syncs them.
    {Status::FilePagesFailed, "DOC_FILE_PAGES_FAILED", std::nullopt, true, OnPush::Sync},
    {Status::DocUpdating, "DOC_UPDATING", Status::DocFailure, false, OnPush::Sync},
    {Status::DocSuccess, "DOC_SUCCESS", std::nullopt, false, OnPush::Sync},
    {Status::DocFailure, "DOC_FAILURE", std::nullopt, true, OnPush::Sync},
}};

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kStatuses.size(); ++i)
    if (static_cast<std::size_t>(kStatuses[i].status) != i) return false;
  return true;
}
static_assert(rowsInEnumOrder(), "kStatuses is indexed by Status");

const StatusRow& row(Status status) { return kStatuses[static_cast<std::size_t>(status)]; }

const StatusRow* find(std::string_view name) {
  for (const auto& entry : kStatuses)
    if (entry.name == name) return &entry;
  return nullptr;
}

}  // namespace

std::string_view statusName(Status status) { return row(status).name; }

std::optional<Status> parseStatus(std::string_view name) {
  if (const auto* entry = find(name)) return entry->status;
  return std::nullopt;
}

bool isFailed(Status status) { return row(status).failed; }

bool isFailed(std::string_view name) {
  const auto* entry = find(name);
  return entry && entry->failed;
}

bool endsRun(Status status) { return status == Status::DocSuccess || isFailed(status); }

std::optional<Status> failedFor(std::string_view running) {
  const auto* entry = find(running);
  return entry ? entry->failsAs : std::nullopt;
}

Status failedAtStage(std::string_view stage) {
  if (stage == "unpack" || stage == "clone") return Status::CloneFail;
  if (stage == "sync") return Status::PullFail;
  if (stage == "analyze") return Status::FileOverviewsFailed;
  return Status::DocFailure;
}

OnPush onPush(std::string_view name) {
  const auto* entry = find(name);
  return entry ? entry->push : OnPush::Wait;
}

}  // namespace docs::generation
