#pragma once
// Runs a program with arguments (no shell), collects its standard output, and kills it
// after a timeout.

#include <string>
#include <vector>

namespace docs_generation {

struct ProcessResult {
  int exitCode = -1;  // -1: could not start or was killed
  bool timedOut = false;
  std::string output;  // standard output (standard error is discarded)
};

// `environment` ("NAME=value" entries): the child's whole environment; nullptr passes
// docsd's own on.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory, int timeoutSeconds,
                         std::size_t maxOutputBytes = 256u << 20,
                         const std::vector<std::string>* environment = nullptr);

}  // namespace docs_generation
