#pragma once
// Which repository addresses docsd may clone. The configured GitHub (github.url) is
// trusted as given, even on a private network (GitHub Enterprise, tests); any other
// host must be on generation.allowed_hosts, and then every address it resolves to
// must be public: no loopback, private, link-local, shared or multicast ranges, so a
// project cannot make the server reach into its own network. file:// and local paths only
// when generation.allow_local_sources is set.
// Redirects to another host are never followed (see git_source), so a public host
// cannot bounce the clone there.
//
// A check resolves the host once and its answer is the clone's: checkCloneUrl returns the
// addresses it checked, and libgit2 connects to those and nothing else (pinned_connection),
// so a name whose DNS answer changes between the check and the connection (DNS
// rebinding) cannot lead the clone to an internal address.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace docs_generation {

// A host name's numeric addresses ("140.82.112.3", "2606:50c0:8000::153"), in the order
// to try them; empty when the name does not resolve.
using Resolver = std::function<std::vector<std::string>(const std::string& host)>;

// The system's resolver (getaddrinfo), each address once.
std::vector<std::string> resolveHost(const std::string& host);

// Opens a TCP connection to a numeric address and port; the socket, or -1.
using Connector = std::function<int(const std::string& address, const std::string& port)>;

struct ClonePolicy {
  std::string trustedBase;                // e.g. "https://github.com" or "http://127.0.0.1:8123"
  std::vector<std::string> allowedHosts;  // lowercase host names (no port)
  bool allowFileUrls = false;             // file:// and local paths (generation.allow_local_sources)
  Resolver resolve;                       // empty: resolveHost (tests inject their own)
};

// A repository address that passed the check, with what the check saw: the clone, the
// fetch and the remote HEAD's look connect to `addresses` (in order) for host:port and
// never resolve the name again.
struct CloneTarget {
  std::string url;
  std::string scheme;                  // "" for local sources (file://, paths): no network
  std::string host;                    // lowercase, no brackets
  std::string port;                    // numeric, the scheme's default filled in
  std::vector<std::string> addresses;  // checked numeric addresses
  Connector connect;                   // empty: a plain TCP connect (tests record where it goes)
};

struct CloneCheck {
  std::optional<std::string> refused;  // the reason, for the project's status message
  CloneTarget target;                  // when not refused
};

struct ParsedUrl {
  std::string scheme;  // lowercase
  std::string host;    // lowercase, brackets stripped from IPv6
  std::string port;    // "" = the scheme's default
  std::string path;    // from the first '/', may be ""
  bool userinfo = false;
};

std::optional<ParsedUrl> parseUrl(const std::string& url);

// Checks `url` against the policy, resolving its host once (not at all for a numeric
// host). The configured GitHub is pinned too, only not checked.
CloneCheck checkCloneUrl(const std::string& url, const ClonePolicy& policy);

// nullopt when the URL may be cloned, else the reason (for the project's status message).
std::optional<std::string> refuseCloneUrl(const std::string& url, const ClonePolicy& policy);

// True for addresses a server must not reach on a user's behalf ("127.0.0.1", "10.1.2.3",
// "::1", "fe80::1", "::ffff:192.168.0.1", ...). Input is a numeric address.
bool isNonPublicAddress(const std::string& address);

}  // namespace docs_generation
