#pragma once
// Running helper programs (initdb, pg_ctl) optionally as another user, capturing output.

#include <sys/types.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs::core {

struct UserIds {
  uid_t uid;
  gid_t gid;
  std::string name;
};

struct ProcessResult {
  int exitCode = -1;   // -1 when it could not be started or was killed
  std::string output;  // stdout and stderr, interleaved
};

// Looks up a system user by name.
std::optional<UserIds> lookupUser(const std::string& name);
// Runs argv[0] (a path) with argv, as `user` when given (requires root), with a minimal
// environment (see inheritedByHelpers) and extra entries "K=V". Every inherited descriptor
// above stderr is closed in the child.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::optional<UserIds>& user = std::nullopt,
                         const std::vector<std::string>& extraEnv = {});
// Whether an entry "NAME=value" of docsd's environment reaches the helper programs: PATH,
// HOME, USER, LOGNAME, LANG, LANGUAGE, LC_*, TZ and TMPDIR only. The embedded cluster's
// processes would otherwise show docsd's secrets (DOCS_LLM_API_KEY, DATABASE_URL, ...)
// in /proc/<pid>/environ to its user.
bool inheritedByHelpers(std::string_view entry);
// True if `user` can read, write and search `path` (checked in a child that becomes the user).
bool userCanAccess(const UserIds& user, const std::string& path);
// First executable named `name` in PATH.
std::optional<std::string> findInPath(const std::string& name);

}  // namespace docs::core
