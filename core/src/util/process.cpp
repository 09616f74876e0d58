#include "util/process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace docs::core {

namespace {

// In the child: become `user` (group first, supplementary groups dropped).
bool becomeUser(const UserIds& user) {
  return setgroups(0, nullptr) == 0 && setgid(user.gid) == 0 && setuid(user.uid) == 0;
}

void closeInheritedDescriptors() {
  // close_range is in glibc 2.34+; fall back to a loop if the kernel refuses.
  if (::close_range(3, ~0U, 0) != 0)
    for (int fd = 3; fd < 65536; ++fd) ::close(fd);
}

}  // namespace

bool inheritedByHelpers(std::string_view entry) {
  // What the programs need to find themselves and keep the machine's locale (initdb picks
  // the cluster's from it); never docsd's settings, keys or database address.
  static constexpr std::string_view kNames[] = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR"};
  auto eq = entry.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view name = entry.substr(0, eq);
  if (name.starts_with("LC_")) return true;
  for (auto allowed : kNames)
    if (name == allowed) return true;
  return false;
}

std::optional<UserIds> lookupUser(const std::string& name) {
  struct passwd pwd {};
  struct passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (getpwnam_r(name.c_str(), &pwd, buffer.data(), buffer.size(), &found) != 0 || !found) return std::nullopt;
  return UserIds{found->pw_uid, found->pw_gid, name};
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::optional<UserIds>& user,
                         const std::vector<std::string>& extraEnv) {
  ProcessResult result;
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0) {
    result.output = std::string("pipe failed: ") + std::strerror(errno);
    return result;
  }
  std::vector<std::string> envStrings;
  for (char** e = environ; e && *e; ++e)
    if (inheritedByHelpers(*e)) envStrings.emplace_back(*e);
  for (const auto& extra : extraEnv) envStrings.push_back(extra);
  std::vector<char*> envp;
  for (auto& s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    result.output = std::string("fork failed: ") + std::strerror(errno);
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
    return result;
  }
  if (pid == 0) {
    ::dup2(pipeFds[1], STDOUT_FILENO);
    ::dup2(pipeFds[1], STDERR_FILENO);
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    closeInheritedDescriptors();
    if (user && !becomeUser(*user)) {
      const char message[] = "cannot switch to the database user\n";
      (void)!::write(STDERR_FILENO, message, sizeof message - 1);
      _exit(126);
    }
    if (user) {
      // A working directory the user can read; initdb and pg_ctl complain otherwise.
      (void)!::chdir("/");
    }
    ::execve(argp[0], argp.data(), envp.data());
    const char message[] = "cannot execute program\n";
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    _exit(127);
  }
  ::close(pipeFds[1]);
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
    if (n > 0) {
      if (result.output.size() < (1 << 20)) result.output.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(pipeFds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool userCanAccess(const UserIds& user, const std::string& path) {
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    if (!becomeUser(user)) _exit(2);
    _exit(::access(path.c_str(), R_OK | W_OK | X_OK) == 0 ? 0 : 1);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::optional<std::string> findInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string_view rest(path);
  while (!rest.empty()) {
    auto colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (dir.empty()) continue;
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

}  // namespace docs::core
