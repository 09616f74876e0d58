#include "sources/clone_policy.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace docs_generation {

namespace {

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string defaultPort(const std::string& scheme) {
  if (scheme == "https") return "443";
  if (scheme == "http") return "80";
  if (scheme == "ssh") return "22";
  if (scheme == "git") return "9418";
  return "";
}

bool nonPublicV4(const unsigned char* a) {
  return a[0] == 0 || a[0] == 10 || a[0] == 127 || (a[0] == 169 && a[1] == 254) ||
         (a[0] == 172 && (a[1] & 0xF0) == 16) || (a[0] == 192 && a[1] == 168) || (a[0] == 100 && (a[1] & 0xC0) == 64) ||
         (a[0] == 192 && a[1] == 0 && a[2] == 0) || (a[0] == 198 && (a[1] & 0xFE) == 18) || a[0] >= 224;
}

}  // namespace

std::optional<ParsedUrl> parseUrl(const std::string& url) {
  auto schemeEnd = url.find("://");
  if (schemeEnd == std::string::npos || schemeEnd == 0) return std::nullopt;
  ParsedUrl out;
  out.scheme = lower(url.substr(0, schemeEnd));
  if (url.find_first_of(" \t\r\n\\") != std::string::npos) return std::nullopt;
  std::string rest = url.substr(schemeEnd + 3);
  auto pathStart = rest.find('/');
  std::string authority = rest.substr(0, pathStart);
  out.path = pathStart == std::string::npos ? "" : rest.substr(pathStart);
  if (auto at = authority.rfind('@'); at != std::string::npos) {
    out.userinfo = true;
    authority = authority.substr(at + 1);
  }
  if (!authority.empty() && authority[0] == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    out.host = lower(authority.substr(1, close - 1));
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      out.port = authority.substr(close + 2);
    }
  } else {
    auto colon = authority.find(':');
    out.host = lower(authority.substr(0, colon));
    if (colon != std::string::npos) out.port = authority.substr(colon + 1);
  }
  if (!std::all_of(out.port.begin(), out.port.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  if (out.port == defaultPort(out.scheme)) out.port.clear();
  if (out.scheme != "file" && out.host.empty()) return std::nullopt;
  return out;
}

bool isNonPublicAddress(const std::string& address) {
  unsigned char bytes[16];
  if (inet_pton(AF_INET, address.c_str(), bytes) == 1) return nonPublicV4(bytes);
  if (inet_pton(AF_INET6, address.c_str(), bytes) != 1) return true;  // not an address: refuse
  static const unsigned char zero[16] = {};
  if (std::memcmp(bytes, zero, 15) == 0 && (bytes[15] == 0 || bytes[15] == 1)) return true;  // :: and ::1
  static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(bytes, mapped, 12) == 0) return nonPublicV4(bytes + 12);
  if ((bytes[0] & 0xFE) == 0xFC) return true;                      // fc00::/7 unique local
  if (bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80) return true;  // fe80::/10 link-local
  if (bytes[0] == 0xFF) return true;                               // multicast
  if (bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0d && bytes[3] == 0xb8) return true;  // documentation
  if (bytes[0] == 0x00 && bytes[1] == 0x64 && bytes[2] == 0xff && bytes[3] == 0x9b) return true;  // NAT64 (maps IPv4)
  return false;
}

std::vector<std::string> resolveHost(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::vector<std::string> addresses;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return addresses;
  for (addrinfo* each = found; each; each = each->ai_next) {
    if (each->ai_family != AF_INET && each->ai_family != AF_INET6) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* address = each->ai_family == AF_INET
                              ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(each->ai_addr)->sin_addr)
                              : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(each->ai_addr)->sin6_addr);
    if (!inet_ntop(each->ai_family, address, text, sizeof text)) continue;
    if (std::find(addresses.begin(), addresses.end(), text) == addresses.end()) addresses.emplace_back(text);
  }
  freeaddrinfo(found);
  return addresses;
}

CloneCheck checkCloneUrl(const std::string& url, const ClonePolicy& policy) {
  CloneCheck check;
  check.target.url = url;
  auto refuse = [&](std::string reason) {
    check.refused = std::move(reason);
    return check;
  };
  if (!url.empty() && url.front() == '/') {  // a local path: like file://
    if (policy.allowFileUrls) return check;
    return refuse("Local repositories are not allowed on this server");
  }
  auto parsed = parseUrl(url);
  if (!parsed) return refuse("The repository address is not a valid URL");
  if (parsed->scheme == "file") {
    if (policy.allowFileUrls) return check;
    return refuse("file:// repositories are not allowed on this server");
  }
  if (parsed->userinfo) return refuse("Repository addresses must not carry credentials");
  bool trusted = false;
  if (auto base = parseUrl(policy.trustedBase);
      base && base->scheme == parsed->scheme && base->host == parsed->host && base->port == parsed->port)
    trusted = true;  // the configured GitHub
  if (!trusted) {
    if (parsed->scheme != "https") return refuse("Only https:// repository addresses are allowed");
    if (std::find(policy.allowedHosts.begin(), policy.allowedHosts.end(), parsed->host) == policy.allowedHosts.end())
      return refuse("Repositories on " + parsed->host + " are not allowed on this server");
  }
  check.target.scheme = parsed->scheme;
  check.target.host = parsed->host;
  check.target.port = parsed->port.empty() ? defaultPort(parsed->scheme) : parsed->port;
  if (check.target.port.empty()) return refuse("The repository address has no port");
  unsigned char numeric[16];
  if (inet_pton(AF_INET, parsed->host.c_str(), numeric) == 1 || inet_pton(AF_INET6, parsed->host.c_str(), numeric) == 1)
    check.target.addresses = {parsed->host};  // nothing to resolve
  else check.target.addresses = policy.resolve ? policy.resolve(parsed->host) : resolveHost(parsed->host);
  if (check.target.addresses.empty()) return refuse("The repository's host does not resolve");
  if (!trusted)
    for (const auto& address : check.target.addresses)
      if (isNonPublicAddress(address)) return refuse("The repository's host resolves to a private or local address");
  return check;
}

std::optional<std::string> refuseCloneUrl(const std::string& url, const ClonePolicy& policy) {
  return checkCloneUrl(url, policy).refused;
}

}  // namespace docs_generation
