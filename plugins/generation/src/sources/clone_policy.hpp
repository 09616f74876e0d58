#pragma once
// Which repository addresses docsd may clone. The configured GitHub (github.url) is
// trusted as given, even on a private network (GitHub Enterprise, tests); any other
// host must be on generation.allowed_hosts, and then every address it resolves to
// must be public: no loopback, private, link-local, shared or multicast ranges, so a
// project cannot make the server reach into its own network. file:// and local paths only
// when generation.allow_local_sources is set.
// Redirects to another host are never followed (see git_source), so a public host
// cannot bounce the clone there.

#include <optional>
#include <string>
#include <vector>

namespace docs::generation {

struct ClonePolicy {
  std::string trustedBase;                // e.g. "https://github.com" or "http://127.0.0.1:8123"
  std::vector<std::string> allowedHosts;  // lowercase host names (no port)
  bool allowFileUrls = false;            // file:// and local paths (generation.allow_local_sources)
};

struct ParsedUrl {
  std::string scheme;   // lowercase
  std::string host;     // lowercase, brackets stripped from IPv6
  std::string port;     // "" = the scheme's default
  std::string path;     // from the first '/', may be ""
  bool userinfo = false;
};

std::optional<ParsedUrl> parseUrl(const std::string& url);

// nullopt when the URL may be cloned, else the reason (for the project's status message).
std::optional<std::string> refuseCloneUrl(const std::string& url, const ClonePolicy& policy);

// True for addresses a server must not reach on a user's behalf ("127.0.0.1", "10.1.2.3",
// "::1", "fe80::1", "::ffff:192.168.0.1", ...). Input is a numeric address.
bool isNonPublicAddress(const std::string& address);

}  // namespace docs::generation
