#include "sources/git_source.hpp"

#include <git2.h>

#include "sources/clone_policy.hpp"
#include "sources/pinned_connection.hpp"

#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>

namespace docs_generation {

namespace fs = std::filesystem;

namespace {

void initOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    installPinnedConnections();
  });
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
  if (!transfer->credentials->has_value() || ++transfer->credentialCalls > 1 ||
      !(allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
    return GIT_PASSTHROUGH;
  // Only the host the repository is on gets the token, wherever a server sent the request.
  if (!url || transfer->origin.empty() || originOf(url) != transfer->origin) return GIT_PASSTHROUGH;
  const auto& credentials = **transfer->credentials;
  return git_credential_userpass_plaintext_new(out, credentials.username.c_str(), credentials.password.c_str());
}

// Over the time allowed, or cancelled: the reason is kept for the caller's message.
bool stopNow(Transfer& transfer) {
  if (std::chrono::steady_clock::now() - transfer.started > transfer.limits->maxDuration) {
    transfer.stopReason = "Cloning took longer than this server allows";
    return true;
  }
  if (*transfer.cancelled && (*transfer.cancelled)()) {
    transfer.stopReason = "cancelled";
    return true;
  }
  return false;
}

int progressCallback(const git_indexer_progress* stats, void* payload) {
  auto* transfer = static_cast<Transfer*>(payload);
  if (stats->received_bytes > transfer->limits->maxReceivedBytes) {
    transfer->stopReason = "The repository is larger than this server accepts";
    return -1;
  }
  return stopNow(*transfer) ? -1 : 0;
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

std::string tooManyEntries(const GitLimits& limits) {
  return "The repository has more than " + std::to_string(limits.maxEntries) +
         " files and folders (this server checks out at most twice generation.max_files)";
}

// Measures what checking out `root` would write, path by path, without writing anything
// or reading a file's content: a blob's size comes from its object header. A folder named
// many times is walked (and counted) each time, so the classic bomb of one subtree
// repeated on every level is counted as the paths it would become; the walk stops at the
// first limit passed, which bounds its own work by the limits. An explicit stack, so the
// repository's nesting never sets the depth of ours. nullopt: within the limits.
std::optional<std::string> refuseTree(git_repository* repo, const git_oid* rootId, Transfer& transfer) {
  const GitLimits& limits = *transfer.limits;
  Owned<git_odb, git_odb_free> odb;
  if (git_repository_odb(&odb.ptr, repo) != 0) return lastError("Reading the repository failed");
  struct Folder {
    std::unique_ptr<git_tree, void (*)(git_tree*)> tree;
    std::size_t next = 0;       // the entry to look at next
    std::size_t pathBytes = 0;  // the folder's path, '/'-separated, without a trailing '/'
  };
  std::vector<Folder> stack;
  // The most bytes one tree entry can take within the limits: a mode of up to 6 digits,
  // a space, the name, a NUL and a 20-byte id. A folder object larger than the entries
  // still allowed could take is refused without being read.
  const std::uint64_t maxEntryBytes = 28 + limits.maxPathBytes;
  std::uint64_t entries = 0, bytes = 0;
  auto open = [&](const git_oid* id, std::size_t pathBytes) -> std::optional<std::string> {
    std::size_t size = 0;
    git_object_t stored = GIT_OBJECT_INVALID;
    if (git_odb_read_header(&size, &stored, odb.ptr, id) != 0) return lastError("Reading the repository failed");
    if (size / maxEntryBytes > limits.maxEntries - entries) return tooManyEntries(limits);
    git_tree* tree = nullptr;
    if (git_tree_lookup(&tree, repo, id) != 0) return lastError("Reading the repository failed");
    stack.push_back(Folder{{tree, git_tree_free}, 0, pathBytes});
    return std::nullopt;
  };
  if (auto refused = open(rootId, 0)) return refused;
  while (!stack.empty()) {
    Folder& folder = stack.back();
    if (folder.next == git_tree_entrycount(folder.tree.get())) {
      stack.pop_back();
      continue;
    }
    const git_tree_entry* entry = git_tree_entry_byindex(folder.tree.get(), folder.next++);
    if (++entries > limits.maxEntries) return tooManyEntries(limits);
    if (entries % 512 == 0 && stopNow(transfer)) return transfer.stopReason;
    std::size_t pathBytes = folder.pathBytes + (folder.pathBytes ? 1 : 0) + std::strlen(git_tree_entry_name(entry));
    if (pathBytes > limits.maxPathBytes)
      return "The repository has a path longer than " + std::to_string(limits.maxPathBytes) + " bytes";
    git_object_t type = git_tree_entry_type(entry);
    if (type == GIT_OBJECT_BLOB) {
      std::size_t size = 0;
      git_object_t stored = GIT_OBJECT_INVALID;
      if (git_odb_read_header(&size, &stored, odb.ptr, git_tree_entry_id(entry)) != 0)
        return lastError("Reading the repository failed");
      bytes += size;
      if (bytes > limits.maxUnpackedBytes)
        return "The repository's files add up to more than " + std::to_string(limits.maxUnpackedBytes >> 20) +
               " MB (generation.max_unpacked_mb)";
    } else if (type == GIT_OBJECT_TREE) {
      if (stack.size() > limits.maxDepth)  // the depth of the folder this entry is
        return "The repository's folders nest deeper than " + std::to_string(limits.maxDepth) + " levels";
      if (auto refused = open(git_tree_entry_id(entry), pathBytes)) return refused;  // `folder` is stale from here
    }
    // A gitlink (submodule) is not fetched: at most an empty folder.
  }
  return std::nullopt;
}

// The checkout's planning names each file it will write before writing any; over the
// limit, out of time or cancelled, a non-zero answer aborts the checkout with nothing
// written. A second guard behind refuseTree, and the point where a long checkout can stop.
struct CheckoutWatch {
  Transfer* transfer = nullptr;
  std::uint64_t files = 0;
};

int checkoutNotify(git_checkout_notify_t why, const char*, const git_diff_file*, const git_diff_file*,
                   const git_diff_file*, void* payload) {
  auto* watch = static_cast<CheckoutWatch*>(payload);
  if (why != GIT_CHECKOUT_NOTIFY_UPDATED) return 0;
  if (++watch->files > watch->transfer->limits->maxEntries) {
    watch->transfer->stopReason = tooManyEntries(*watch->transfer->limits);
    return -1;
  }
  return watch->files % 512 == 0 && stopNow(*watch->transfer) ? -1 : 0;
}

// Measures the commit's tree, then checks it out with the watch.
bool checkOutWithinLimits(git_repository* repo, const git_oid* commitId, unsigned strategy, Transfer& transfer,
                          GitResult& result) {
  Owned<git_commit, git_commit_free> commit;
  Owned<git_object, git_object_free> target;
  if (git_commit_lookup(&commit.ptr, repo, commitId) != 0 ||
      git_object_lookup(&target.ptr, repo, commitId, GIT_OBJECT_COMMIT) != 0) {
    result.error = lastError("Reading the commit failed");
    return false;
  }
  if (auto refused = refuseTree(repo, git_commit_tree_id(commit.ptr), transfer)) {
    result.error = *refused;
    return false;
  }
  CheckoutWatch watch{&transfer, 0};
  git_checkout_options checkout = GIT_CHECKOUT_OPTIONS_INIT;
  checkout.checkout_strategy = strategy;
  checkout.notify_flags = GIT_CHECKOUT_NOTIFY_UPDATED;
  checkout.notify_cb = checkoutNotify;
  checkout.notify_payload = &watch;
  if (git_checkout_tree(repo, target.ptr, &checkout) != 0) {
    result.error = transfer.stopReason.empty() ? lastError("Checking out the commit failed") : transfer.stopReason;
    return false;
  }
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

GitResult cloneRepository(const CloneTarget& target, const std::string& destination,
                          const std::optional<GitCredentials>& credentials, const GitLimits& limits,
                          const std::function<bool()>& cancelled) {
  initOnce();
  GitResult result;
  Transfer transfer;
  transfer.credentials = &credentials;
  transfer.origin = originOf(target.url);
  transfer.limits = &limits;
  transfer.cancelled = &cancelled;
  git_clone_options options = GIT_CLONE_OPTIONS_INIT;
  prepareFetch(options.fetch_opts, transfer);
  // Objects only: the checkout waits until the tree is measured.
  options.checkout_opts.checkout_strategy = GIT_CHECKOUT_NONE;
  Owned<git_repository, git_repository_free> repo;
  auto fail = [&](std::string error) {
    result.ok = false;
    result.error = std::move(error);
    std::error_code ignored;
    fs::remove_all(destination, ignored);
    return result;
  };
  {
    PinnedConnections pinned(target, [&] { return stopNow(transfer); });
    if (git_clone(&repo.ptr, target.url.c_str(), destination.c_str(), &options) != 0)
      return fail(transfer.stopReason.empty() ? lastError("Cloning failed") : transfer.stopReason);
  }
  if (!readHead(repo.ptr, result)) return fail(result.error);
  git_oid commit;
  if (git_oid_fromstr(&commit, result.commit.c_str()) != 0) return fail(lastError("Reading the commit failed"));
  // The folder holds nothing but .git yet: a forced checkout writes the whole tree.
  if (!checkOutWithinLimits(repo.ptr, &commit, GIT_CHECKOUT_FORCE, transfer, result)) return fail(result.error);
  result.removedLinks = removeSymbolicLinks(destination);
  result.ok = true;
  return result;
}

GitResult fetchLatest(const std::string& directory, const CloneTarget& target,
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
  transfer.origin = originOf(target.url);
  transfer.limits = &limits;
  transfer.cancelled = &cancelled;
  // Before the remote: it may close its connection when freed.
  PinnedConnections pinned(target, [&] { return stopNow(transfer); });
  // An anonymous remote: the URL (and so any token) is never written to .git/config.
  Owned<git_remote, git_remote_free> remote;
  if (git_remote_create_anonymous(&remote.ptr, repo.ptr, target.url.c_str()) != 0) {
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
  git_oid fetchedCommit;
  std::string remoteRef = "refs/remotes/origin/" + before.branch;
  if (git_reference_name_to_id(&fetchedCommit, repo.ptr, remoteRef.c_str()) != 0) {
    result.error = lastError("The default branch is gone");
    return result;
  }
  GitResult checkedOut;
  // Links removed after the last checkout would otherwise be restored.
  if (!checkOutWithinLimits(repo.ptr, &fetchedCommit, GIT_CHECKOUT_FORCE | GIT_CHECKOUT_REMOVE_UNTRACKED, transfer,
                            checkedOut)) {
    result.error = checkedOut.error;
    return result;
  }
  std::string localRef = "refs/heads/" + before.branch;
  Owned<git_reference, git_reference_free> moved;
  if (git_reference_create(&moved.ptr, repo.ptr, localRef.c_str(), &fetchedCommit, 1, "docsd sync") != 0) {
    result.error = lastError("Moving the branch failed");
    return result;
  }
  result.commit = oidHex(&fetchedCommit);
  result.branch = before.branch;
  result.removedLinks = removeSymbolicLinks(directory);
  result.ok = true;
  return result;
}

std::optional<std::string> remoteHead(const CloneTarget& target, const std::optional<GitCredentials>& credentials,
                                      const GitLimits& limits) {
  initOnce();
  Transfer transfer;
  transfer.credentials = &credentials;
  transfer.origin = originOf(target.url);
  transfer.limits = &limits;
  std::function<bool()> never;
  transfer.cancelled = &never;
  PinnedConnections pinned(target, [&] { return stopNow(transfer); });
  Owned<git_remote, git_remote_free> remote;
  if (git_remote_create_detached(&remote.ptr, target.url.c_str()) != 0) return std::nullopt;
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
  if (git_diff_tree_to_tree(&diff.ptr, repo.ptr, oldTree.ptr, newTree.ptr, nullptr) != 0)
    throw std::runtime_error(lastError("diff"));
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
      case GIT_DELTA_DELETED:
        change.status = 'D';
        change.path = change.oldPath;
        break;
      case GIT_DELTA_RENAMED: change.status = 'R'; break;
      default: change.status = 'M'; break;
    }
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace docs_generation
