#pragma once
// The project statuses a generation run sets (the spec's values), with what each means to
// the run: the failure a running status ends in, whether the run stopped at a failure,
// and what a push does there. The projects plugin's project_rules.cpp holds the full list
// (with IDLE and READY, which generation never sets) and their sort order.
// Private to this plugin for now: it becomes a use of the SDK's ProjectStatus
// (docs/project_status.hpp, issue 24 item 5) when that arrives with the ABI bump.

#include <optional>
#include <string_view>

namespace docs::generation {

enum class Status {
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

// What a push to the repository does to a project in a status.
enum class OnPush {
  Wait,       // the first run is going: it queues the sync when it ends
  Sync,       // settled: sync now
  StartOver,  // the first run failed before its pages were written: clone again
};

// The spec's name ("DOC_SUCCESS").
std::string_view statusName(Status status);
// nullopt for a status generation never sets (IDLE, READY, unknown text).
std::optional<Status> parseStatus(std::string_view name);
// A run stopped at this status and waits for a retry or a push.
bool isFailed(Status status);
bool isFailed(std::string_view name);
// The run ended (it succeeded or stopped at a failure): generation_runs.finished_at.
bool endsRun(Status status);
// The failure a run in `running` ends in; nullopt when the status is not a running one.
std::optional<Status> failedFor(std::string_view running);
// The failure of a stage job ("unpack", "clone", "sync", "analyze", "write").
Status failedAtStage(std::string_view stage);
OnPush onPush(std::string_view name);

}  // namespace docs::generation
