#pragma once
// A project's status: the spec's values, their order in the project list, and the moves a
// generation run makes between them (a running status ends in its failure; a failure or
// DOC_SUCCESS ends the run). One table, so the projects plugin, generation and the stores
// of status names agree. Header-only: plugins link nothing for it.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace docs {

enum class ProjectStatus {
  Idle,
  Ready,
  RequestToClone,
  Cloning,
  CloneSuccess,
  CloneFail,
  PullFail,
  DocPending,
  FileOverviewsGenerating,
  FileOverviewsFailed,
  ProjectOverviewGenerating,
  ProjectOverviewFailed,
  TopicsGenerating,
  TopicsFailed,
  TopicPagesGenerating,
  TopicPagesFailed,
  SubtopicsGenerating,
  FilePagesGenerating,
  FilePagesFailed,
  DocUpdating,
  DocSuccess,
  DocFailure,
};

namespace project_status_detail {

struct Row {
  ProjectStatus status;
  std::string_view name;
  int sortOrder;                         // the project list: done, updating, in progress, partly failed, failed
  std::optional<ProjectStatus> failsAs;  // set for the statuses a running stage holds
  bool failed;                           // a run stopped here and waits for a retry or a push
};

using S = ProjectStatus;
inline constexpr std::array<Row, 22> kRows{{
    {S::Idle, "IDLE", 3, std::nullopt, false},
    {S::Ready, "READY", 1, std::nullopt, false},
    {S::RequestToClone, "REQUEST_TO_CLONE", 3, std::nullopt, false},
    {S::Cloning, "CLONING", 3, S::CloneFail, false},
    {S::CloneSuccess, "CLONE_SUCCESS", 3, std::nullopt, false},
    {S::CloneFail, "CLONE_FAIL", 5, std::nullopt, true},
    {S::PullFail, "PULL_FAIL", 5, std::nullopt, true},
    {S::DocPending, "DOC_PENDING", 3, S::FileOverviewsFailed, false},
    {S::FileOverviewsGenerating, "DOC_FILE_OVERVIEWS_GENERATING", 3, S::FileOverviewsFailed, false},
    {S::FileOverviewsFailed, "DOC_FILE_OVERVIEWS_FAILED", 3, std::nullopt, true},
    {S::ProjectOverviewGenerating, "DOC_PROJECT_OVERVIEW_GENERATING", 3, S::ProjectOverviewFailed, false},
    {S::ProjectOverviewFailed, "DOC_PROJECT_OVERVIEW_FAILED", 3, std::nullopt, true},
    {S::TopicsGenerating, "DOC_TOPICS_GENERATING", 3, S::TopicsFailed, false},
    {S::TopicsFailed, "DOC_TOPICS_FAILED", 5, std::nullopt, true},
    {S::TopicPagesGenerating, "DOC_TOPIC_PAGES_GENERATING", 3, S::TopicPagesFailed, false},
    {S::TopicPagesFailed, "DOC_TOPIC_PAGES_FAILED", 5, std::nullopt, true},
    // The spec has no DOC_SUBTOPICS_FAILED.
    {S::SubtopicsGenerating, "DOC_SUBTOPICS_GENERATING", 3, S::DocFailure, false},
    {S::FilePagesGenerating, "DOC_FILE_PAGES_GENERATING", 3, S::FilePagesFailed, false},
    {S::FilePagesFailed, "DOC_FILE_PAGES_FAILED", 4, std::nullopt, true},
    {S::DocUpdating, "DOC_UPDATING", 2, S::DocFailure, false},
    {S::DocSuccess, "DOC_SUCCESS", 1, std::nullopt, false},
    {S::DocFailure, "DOC_FAILURE", 5, std::nullopt, true},
}};

constexpr bool rowsInEnumOrder() {
  for (std::size_t i = 0; i < kRows.size(); ++i)
    if (static_cast<std::size_t>(kRows[i].status) != i) return false;
  return true;
}
static_assert(rowsInEnumOrder(), "kRows is indexed by ProjectStatus");

constexpr const Row& row(ProjectStatus status) { return kRows[static_cast<std::size_t>(status)]; }

}  // namespace project_status_detail

// Every status, in declaration order.
inline constexpr std::array<ProjectStatus, 22> kProjectStatuses = [] {
  std::array<ProjectStatus, 22> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = project_status_detail::kRows[i].status;
  return all;
}();

// The spec's name ("DOC_SUCCESS").
constexpr std::string_view toString(ProjectStatus status) { return project_status_detail::row(status).name; }

// nullopt for text the spec does not name (letter case counts: "ready" is not READY).
constexpr std::optional<ProjectStatus> parseProjectStatus(std::string_view name) {
  for (const auto& entry : project_status_detail::kRows)
    if (entry.name == name) return entry.status;
  return std::nullopt;
}

// The project list sorts by this, smallest first: 1 done, 2 updating, 3 in progress (and the
// early failures a push restarts), 4 pages written but some failed, 5 failed.
constexpr int sortOrder(ProjectStatus status) { return project_status_detail::row(status).sortOrder; }

// A run stopped at this status and waits for a retry or a push.
constexpr bool isFailed(ProjectStatus status) { return project_status_detail::row(status).failed; }

// The failure a run holding `running` ends in; nullopt when `running` is not a running status.
constexpr std::optional<ProjectStatus> failedFor(ProjectStatus running) {
  return project_status_detail::row(running).failsAs;
}

// The run ended here: it succeeded, or it stopped at a failure.
constexpr bool endsRun(ProjectStatus status) { return status == ProjectStatus::DocSuccess || isFailed(status); }

}  // namespace docs
