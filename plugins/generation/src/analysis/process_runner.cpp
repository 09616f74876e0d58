#include "analysis/process_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

namespace docs_generation {

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& workingDirectory, int timeoutSeconds,
                         std::size_t maxOutputBytes, const std::vector<std::string>* environment) {
  ProcessResult result;
  int out[2];
  if (argv.empty() || ::pipe2(out, O_CLOEXEC) != 0) return result;
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  if (environment) {
    for (const auto& entry : *environment) envp.push_back(const_cast<char*>(entry.c_str()));
    envp.push_back(nullptr);
  }
  // posix_spawn rather than fork: no copy of docsd's page tables (fast however large the
  // server is) and nothing run between fork and exec in a process full of threads.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  if (!workingDirectory.empty()) posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
  pid_t pid = 0;
  int failed = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environment ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return result;
  }
  ::close(out[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  char buffer[65536];
  while (true) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      result.timedOut = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0) break;
    if (ready == 0) continue;
    ssize_t n = ::read(out[0], buffer, sizeof buffer);
    if (n <= 0) break;
    if (result.output.size() < maxOutputBytes) result.output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  if (result.timedOut) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!result.timedOut && WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
  return result;
}

}  // namespace docs_generation
