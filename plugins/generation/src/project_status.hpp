#pragma once
// What the SDK's project statuses (docs/project_status.hpp) mean to generation beyond the
// shared table: the failure a stage job ends in, and what a push does in each status.

#include <string_view>

#include <docs/project_status.hpp>

namespace docs_generation {

using Status = docs::ProjectStatus;

// What a push to the repository does to a project in a status.
enum class OnPush {
  Wait,       // the first run is going: it queues the sync when it ends
  Sync,       // settled: sync now
  StartOver,  // the first run failed before its pages were written: clone again
};

// The failure of a stage job ("unpack", "clone", "sync", "analyze", "write").
Status failedAtStage(std::string_view stage);
OnPush onPush(Status status);
// The failure a run that last recorded `running` (a status name) ends in, else `otherwise`.
Status failedFrom(std::string_view running, Status otherwise);
// The status name is a failure (false for text that names no status).
bool isFailedName(std::string_view name);

}  // namespace docs_generation
