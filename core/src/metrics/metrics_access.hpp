#pragma once
// Who may read GET /metrics: loopback clients, clients inside metrics.allowed_cidrs, and
// callers presenting metrics.token as a Bearer token. Everyone else gets a 404, as if the
// path did not exist. The client address is the one the server computed (behind a trusted
// proxy: the forwarded client, never the proxy).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docs::core {

// An IPv4 or IPv6 network; IPv4 addresses are kept as IPv4-mapped IPv6 (::ffff:a.b.c.d/96+n).
struct Cidr {
  std::array<std::uint8_t, 16> address{};
  int prefix = 128;
  bool contains(const std::array<std::uint8_t, 16>& other) const;
};

// "10.0.0.0/8", "fd00::/8" or a single address; nullopt when malformed.
std::optional<Cidr> parseCidr(std::string_view text);
// An IPv4 or IPv6 address as 16 bytes (IPv4 mapped); nullopt when malformed.
std::optional<std::array<std::uint8_t, 16>> parseAddress(std::string_view text);

class MetricsAccess {
 public:
  // Throws std::invalid_argument naming a malformed CIDR.
  MetricsAccess(const std::vector<std::string>& allowedCidrs, std::string token);
  bool allows(std::string_view clientAddress, std::string_view authorizationHeader) const;

 private:
  std::vector<Cidr> allowed_;
  std::string token_;
};

}  // namespace docs::core
