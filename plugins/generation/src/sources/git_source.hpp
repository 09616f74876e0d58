#pragma once
// Repositories through libgit2: a clone of the default branch into a project's source
// folder (connecting only to the addresses the clone policy checked, see
// pinned_connection; no redirect followed, bounded in bytes and time, symbolic links removed
// after checkout, credentials handed over per request and never written to
// .git/config), the later fetch of a newer commit, and the files that changed between
// two commits. Before anything is checked out, the commit's tree is measured against the
// checkout limits (a git bomb: a few KB of objects naming one folder many times over).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sources/clone_policy.hpp"

namespace docs_generation {

struct GitCredentials {
  std::string username;  // GitHub App installations: "x-access-token"
  std::string password;  // the token
};

struct GitLimits {
  std::uint64_t maxReceivedBytes = 2ull << 30;
  std::chrono::seconds maxDuration{900};
  // The checkout, counted per path from the tree before anything is written: files and
  // folders (a folder repeated N times counts N times), the bytes of the files, how deep
  // folders nest and how long one path is.
  std::uint64_t maxEntries = 40000;             // the server: twice generation.max_files
  std::uint64_t maxUnpackedBytes = 1ull << 30;  // generation.max_unpacked_mb
  std::size_t maxDepth = 100;
  std::size_t maxPathBytes = 1024;
};

struct GitResult {
  bool ok = false;
  std::string error;                      // for people; never contains credentials
  std::string commit;                     // the checked-out commit (hex)
  std::string branch;                     // the default branch's name
  std::vector<std::string> removedLinks;  // symbolic links dropped from the checkout
};

// Every function here takes the target checkCloneUrl returned (never a bare URL): libgit2
// connects to its checked addresses for its host and port, and nowhere else.

// Clones `target.url` into `destination` (which must not exist). On failure the destination is
// removed again. `cancelled` is polled during the transfer (also while the server is
// silent), the tree's measuring and the checkout's planning.
GitResult cloneRepository(const CloneTarget& target, const std::string& destination,
                          const std::optional<GitCredentials>& credentials, const GitLimits& limits,
                          const std::function<bool()>& cancelled = {});

// Fetches the default branch of the clone at `directory` from `target.url` and checks it out
// (the same checkout limits; over them the clone stays at the commit it had).
GitResult fetchLatest(const std::string& directory, const CloneTarget& target,
                      const std::optional<GitCredentials>& credentials, const GitLimits& limits,
                      const std::function<bool()>& cancelled = {});

// The commit the remote's HEAD names, without fetching; nullopt when it cannot be asked.
std::optional<std::string> remoteHead(const CloneTarget& target, const std::optional<GitCredentials>& credentials,
                                      const GitLimits& limits);

struct ChangedFile {
  std::string path;     // new path ('/'-separated)
  std::string oldPath;  // differs for renames
  char status = 'M';    // A added, M modified, D deleted, R renamed
};

// Files that differ between two commits of the clone at `directory` (empty `from`: all).
std::vector<ChangedFile> changedFiles(const std::string& directory, const std::string& from, const std::string& to);

// Removes every symbolic link under `directory` (they could point out of the tree).
std::vector<std::string> removeSymbolicLinks(const std::string& directory);

}  // namespace docs_generation
