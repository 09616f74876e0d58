#pragma once
// libgit2 connects only to the addresses a clone's check saw.
//
// libgit2 1.5 resolves a remote's host name itself when it opens a connection and cannot
// be given an address. So docsd registers the plain socket stream libgit2 builds every
// connection on (GIT_STREAM_STANDARD: http:// uses it as is, https:// wraps it in TLS, which
// still verifies the certificate against the host name): it never resolves, and connects
// to the CloneTarget's checked addresses for the target's host and port. The target is
// the one of the PinnedConnections alive on the calling thread (libgit2 connects on the
// thread that called it). Any other host or port (a redirect to elsewhere, a proxy) is
// refused, and so is a connection on a thread with no PinnedConnections.

#include <functional>

#include "sources/clone_policy.hpp"

namespace docs_generation {

// Registers the stream with libgit2; once per process, after git_libgit2_init.
void installPinnedConnections();

class PinnedConnections {
 public:
  // `stop` is polled while a connection is made and while it waits for the server (true:
  // give up now), so a server that goes silent cannot hold the clone past its deadline.
  PinnedConnections(const CloneTarget& target, std::function<bool()> stop);
  ~PinnedConnections();
  PinnedConnections(const PinnedConnections&) = delete;
  PinnedConnections& operator=(const PinnedConnections&) = delete;

  struct State;

 private:
  State* state_;
  State* previous_;
};

}  // namespace docs_generation
