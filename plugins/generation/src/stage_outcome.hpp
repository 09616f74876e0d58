#pragma once
// How a server stage ends other than by finishing: the errors its job's handler catches.

#include <stdexcept>
#include <string>

#include "project_status.hpp"

namespace docs_generation {

// A stage ended for good: the project takes `status`, the job does not retry.
struct StageFailure : std::runtime_error {
  StageFailure(Status failed, const std::string& message) : std::runtime_error(message), status(failed) {}
  Status status;
};

// The project was deleted meanwhile: stop quietly.
struct ProjectGone : std::runtime_error {
  ProjectGone() : std::runtime_error("the project was deleted") {}
};

}  // namespace docs_generation
