#include "git_source.hpp"

#include <git2.h>

#include "clone_policy.hpp"

#include <filesystem>
#include <memory>
#include <mutex>

namespace docs::generation {

namespace fs = std::filesystem;

namespace {

void initOnce() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

std::string lastError(const char* what) {
  const git_error* error = git_error_last();
  std::string message = error && error->message ? error->message : "unknown error";
  // libgit2 may echo the URL; credentials never are part of it (they come from a callback).
  return std::string(what) + ": " + message;
}

struct Transfer {
  const std::optional<GitCredentials>* credentials = nullptr;
  std::string origin;  // scheme://host:port of the address asked for; the token goes nowhere else
  const GitLimits* limits = nullptr;
  const std::function<bool()>* cancelled = nullptr;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  int credentialCalls = 0;
  std::string stopReason;
};

std::string originOf(const std::string& url) {
  auto parsed = parseUrl(url);
  return parsed ? parsed->scheme + "://" + parsed->host + ":" + parsed->port : std::string();
}

int credentialCallback(git_credential** out, const char* url, const char*, unsigned int allowed, void* payload) {
  auto* transfer = static_cast<Transfer*>(payload);
  // A second call means the first was refused: give up instead of looping.
  if (!transfer->credentials->has_value() || ++transfer->credentialCalls > 1 || !(allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
    return GIT_PASSTHROUGH;
  // Only the host the repository is on gets the token, wherever a server sent the request.
  if (!url || transfer->origin.empty() || originOf(url) != transfer->origin) return GIT_PASSTHROUGH;
  const auto& credentials = **transfer->credentials;
  return git_credential_userpass_plaintext_new(out, credentials.username.c_str(), credentials.password.c_str());
}

int progressCallback(const git_indexer_progress* stats, void* payload) {
  auto* transfer = static_cast<Transfer*>(payload);
  if (stats->received_bytes > transfer->limits->maxReceivedBytes) {
    transfer->stopReason = "The repository is larger than this server accepts";
    return -1;
  }
  if (std::chrono::steady_clock::now() - transfer->started > transfer->limits->maxDuration) {
    transfer->stopReason = "Cloning took longer than this server allows";
    return -1;
  }
  if (*transfer->cancelled && (*transfer->cancelled)()) {
    transfer->stopReason = "cancelled";
    return -1;
  }
  return 0;
}

void prepareFetch(git_fetch_options& fetch, Transfer& transfer) {
  fetch.callbacks.credentials = credentialCallback;
  fetch.callbacks.transfer_progress = progressCallback;
  fetch.callbacks.payload = &transfer;
  fetch.follow_redirects = GIT_REMOTE_REDIRECT_NONE;
  fetch.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
}

template <class T, void (*Free)(T*)>
struct Owned {
  T* ptr = nullptr;
  ~Owned() {
    if (ptr) Free(ptr);
  }
};

std::string oidHex(const git_oid* oid) {
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, oid);
  return hex;
}

// The commit HEAD names, and the branch it is on.
bool readHead(git_repository* repo, GitResult& result) {
  Owned<git_reference, git_reference_free> head;
  if (git_repository_head(&head.ptr, repo) != 0) {
    result.error = lastError("The repository has no default branch");
    return false;
  }
  const char* shorthand = git_reference_shorthand(head.ptr);
  result.branch = shorthand ? shorthand : "";
  Owned<git_object, git_object_free> commit;
  if (git_reference_peel(&commit.ptr, head.ptr, GIT_OBJECT_COMMIT) != 0) {
    result.error = lastError("The default branch names no commit");
    return false;
  }
  result.commit = oidHex(git_object_id(commit.ptr));
  return true;
}

}  // namespace

std::vector<std::string> removeSymbolicLinks(const std::string& directory) {
  std::vector<std::string> removed;
  std::error_code error;
  std::vector<fs::path> links;
  for (auto it = fs::recursive_directory_iterator(directory, fs::directory_options::none, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error))
    if (it->is_symlink(error)) links.push_back(it->path());
  for (const auto& link : links) {
    fs::remove(link, error);
    removed.push_back(fs::relative(link, directory, error).generic_string());
  }
  return removed;
}

GitResult cloneRepository(const std::string& url, const std::string& destination,
                          const std::optional<GitCredentials>& credentials, const GitLimits& limits,
                          const std::function<bool()>& cancelled) {
  initOnce();
  GitResult result;
  Transfer transfer;
  transfer.credentials = &credentials;
  transfer.origin = originOf(url);
  transfer.limits = &limits;
  transfer.cancelled = &cancelled;
  git_clone_options options = GIT_CLONE_OPTIONS_INIT;
  prepareFetch(options.fetch_opts, transfer);
  options.checkout_opts.checkout_strategy = GIT_CHECKOUT_SAFE;
  Owned<git_repository, git_repository_free> repo;
  if (git_clone(&repo.ptr, url.c_str(), destination.c_str(), &options) != 0) {
    result.error = transfer.stopReason.empty() ? lastError("Cloning failed") : transfer.stopReason;
    std::error_code ignored;
    fs::remove_all(destination, ignored);
    return result;
  }
  if (!readHead(repo.ptr, result)) return result;
  result.removedLinks = removeSymbolicLinks(destination);
  result.ok = true;
  return result;
}

GitResult fetchLatest(const std::string& directory, const std::string& url,
                      const std::optional<GitCredentials>& credentials, const GitLimits& limits,
                      const std::function<bool()>& cancelled) {
  initOnce();
  GitResult result;
  Owned<git_repository, git_repository_free> repo;
  if (git_repository_open(&repo.ptr, directory.c_str()) != 0) {
    result.error = lastError("The project's clone is missing");
    return result;
  }
  GitResult before;
  if (!readHead(repo.ptr, before)) return before;
  Transfer transfer;
  transfer.credentials = &credentials;
  transfer.origin = originOf(url);
  transfer.limits = &limits;
  transfer.cancelled = &cancelled;
  // An anonymous remote: the URL (and so any token) is never written to .git/config.
  Owned<git_remote, git_remote_free> remote;
  if (git_remote_create_anonymous(&remote.ptr, repo.ptr, url.c_str()) != 0) {
    result.error = lastError("Bad repository address");
    return result;
  }
  git_fetch_options fetch = GIT_FETCH_OPTIONS_INIT;
  prepareFetch(fetch, transfer);
  std::string refspec = "+refs/heads/" + before.branch + ":refs/remotes/origin/" + before.branch;
  char* specs[] = {refspec.data()};
  git_strarray refspecs{specs, 1};
  if (git_remote_fetch(remote.ptr, &refspecs, &fetch, nullptr) != 0) {
    result.error = transfer.stopReason.empty() ? lastError("Fetching failed") : transfer.stopReason;
    return result;
  }
  git_oid target;
  std::string remoteRef = "refs/remotes/origin/" + before.branch;
  if (git_reference_name_to_id(&target, repo.ptr, remoteRef.c_str()) != 0) {
    result.error = lastError("The default branch is gone");
    return result;
  }
  Owned<git_object, git_object_free> commit;
  if (git_object_lookup(&commit.ptr, repo.ptr, &target, GIT_OBJECT_COMMIT) != 0) {
    result.error = lastError("The fetched branch names no commit");
    return result;
  }
  git_checkout_options checkout = GIT_CHECKOUT_OPTIONS_INIT;
  checkout.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED;
  // Links removed after the last checkout would otherwise be restored.
  if (git_checkout_tree(repo.ptr, commit.ptr, &checkout) != 0) {
    result.error = lastError("Checking out the new commit failed");
    return result;
  }
  std::string localRef = "refs/heads/" + before.branch;
  Owned<git_reference, git_reference_free> moved;
  if (git_reference_create(&moved.ptr, repo.ptr, localRef.c_str(), &target, 1, "docsd sync") != 0) {
    result.error = lastError("Moving the branch failed");
    return result;
  }
  result.commit = oidHex(&target);
  result.branch = before.branch;
  result.removedLinks = removeSymbolicLinks(directory);
  result.ok = true;
  return result;
}

std::optional<std::string> remoteHead(const std::string& url, const std::optional<GitCredentials>& credentials,
                                      const GitLimits& limits) {
  initOnce();
  Transfer transfer;
  transfer.credentials = &credentials;
  transfer.origin = originOf(url);
  transfer.limits = &limits;
  std::function<bool()> never;
  transfer.cancelled = &never;
  Owned<git_remote, git_remote_free> remote;
  if (git_remote_create_detached(&remote.ptr, url.c_str()) != 0) return std::nullopt;
  git_remote_connect_options options = GIT_REMOTE_CONNECT_OPTIONS_INIT;
  options.callbacks.credentials = credentialCallback;
  options.callbacks.payload = &transfer;
  // libgit2 follows a first redirect by default; a clone's host must not bounce us elsewhere.
  options.follow_redirects = GIT_REMOTE_REDIRECT_NONE;
  if (git_remote_connect_ext(remote.ptr, GIT_DIRECTION_FETCH, &options) != 0) return std::nullopt;
  const git_remote_head** heads = nullptr;
  std::size_t count = 0;
  std::optional<std::string> head;
  if (git_remote_ls(&heads, &count, remote.ptr) == 0)
    for (std::size_t i = 0; i < count; ++i)
      if (std::string(heads[i]->name) == "HEAD") head = oidHex(&heads[i]->oid);
  git_remote_disconnect(remote.ptr);
  return head;
}

std::vector<ChangedFile> changedFiles(const std::string& directory, const std::string& from, const std::string& to) {
  initOnce();
  std::vector<ChangedFile> changes;
  Owned<git_repository, git_repository_free> repo;
  if (git_repository_open(&repo.ptr, directory.c_str()) != 0) throw std::runtime_error(lastError("open"));
  auto treeOf = [&](const std::string& hex, git_tree** tree) {
    if (hex.empty()) {
      *tree = nullptr;
      return;
    }
    git_oid oid;
    Owned<git_commit, git_commit_free> commit;
    if (git_oid_fromstr(&oid, hex.c_str()) != 0 || git_commit_lookup(&commit.ptr, repo.ptr, &oid) != 0 ||
        git_commit_tree(tree, commit.ptr) != 0)
      throw std::runtime_error(lastError("commit"));
  };
  Owned<git_tree, git_tree_free> oldTree, newTree;
  treeOf(from, &oldTree.ptr);
  treeOf(to, &newTree.ptr);
  Owned<git_diff, git_diff_free> diff;
  if (git_diff_tree_to_tree(&diff.ptr, repo.ptr, oldTree.ptr, newTree.ptr, nullptr) != 0) throw std::runtime_error(lastError("diff"));
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;
  git_diff_find_similar(diff.ptr, &find);
  for (std::size_t i = 0; i < git_diff_num_deltas(diff.ptr); ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.ptr, i);
    ChangedFile change;
    change.path = delta->new_file.path ? delta->new_file.path : "";
    change.oldPath = delta->old_file.path ? delta->old_file.path : change.path;
    switch (delta->status) {
      case GIT_DELTA_ADDED: change.status = 'A'; break;
      case GIT_DELTA_DELETED: change.status = 'D'; change.path = change.oldPath; break;
      case GIT_DELTA_RENAMED: change.status = 'R'; break;
      default: change.status = 'M'; break;
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace docs::generation
