#include "project_status.hpp"

namespace docs_generation {

using docs::failedFor;
using docs::isFailed;
using docs::parseProjectStatus;

Status failedAtStage(std::string_view stage) {
  if (stage == "unpack" || stage == "clone") return Status::CloneFail;
  if (stage == "sync") return Status::PullFail;
  if (stage == "analyze") return Status::FileOverviewsFailed;
  return Status::DocFailure;
}

OnPush onPush(Status status) {
  switch (status) {
    // A first run that failed before its pages were written.
    case Status::CloneFail:
    case Status::FileOverviewsFailed:
    case Status::ProjectOverviewFailed:
    case Status::TopicsFailed:
    case Status::TopicPagesFailed: return OnPush::StartOver;
    // The pages are all there: a push syncs them.
    case Status::PullFail:
    case Status::FilePagesFailed:
    case Status::DocUpdating:
    case Status::DocSuccess:
    case Status::DocFailure: return OnPush::Sync;
    default: return OnPush::Wait;
  }
}

Status failedFrom(std::string_view running, Status otherwise) {
  auto status = parseProjectStatus(running);
  return status ? failedFor(*status).value_or(otherwise) : otherwise;
}

bool isFailedName(std::string_view name) {
  auto status = parseProjectStatus(name);
  return status && isFailed(*status);
}

}  // namespace docs_generation
