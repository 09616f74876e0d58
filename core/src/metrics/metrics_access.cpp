#include "metrics/metrics_access.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>
#include <stdexcept>

#include <docs/codec/codec.hpp>

namespace docs::core {

std::optional<std::array<std::uint8_t, 16>> parseAddress(std::string_view text) {
  std::string copy(text);
  std::array<std::uint8_t, 16> bytes{};
  in_addr v4{};
  if (inet_pton(AF_INET, copy.c_str(), &v4) == 1) {
    bytes[10] = bytes[11] = 0xff;
    std::memcpy(&bytes[12], &v4, 4);
    return bytes;
  }
  if (!copy.empty() && copy.front() == '[' && copy.back() == ']') copy = copy.substr(1, copy.size() - 2);
  in6_addr v6{};
  if (inet_pton(AF_INET6, copy.c_str(), &v6) == 1) {
    std::memcpy(bytes.data(), &v6, 16);
    return bytes;
  }
  return std::nullopt;
}

std::optional<Cidr> parseCidr(std::string_view text) {
  auto slash = text.find('/');
  auto address = parseAddress(text.substr(0, slash));
  if (!address) return std::nullopt;
  bool v4 = text.substr(0, slash).find(':') == std::string_view::npos;
  int prefix = v4 ? 32 : 128;
  if (slash != std::string_view::npos) {
    std::string_view digits = text.substr(slash + 1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || prefix < 0 ||
        prefix > (v4 ? 32 : 128))
      return std::nullopt;
  }
  return Cidr{*address, v4 ? prefix + 96 : prefix};
}

bool Cidr::contains(const std::array<std::uint8_t, 16>& other) const {
  int bits = prefix;
  for (std::size_t i = 0; i < 16 && bits > 0; ++i, bits -= 8) {
    std::uint8_t mask = bits >= 8 ? 0xff : static_cast<std::uint8_t>(0xff << (8 - bits));
    if ((address[i] & mask) != (other[i] & mask)) return false;
  }
  return true;
}

MetricsAccess::MetricsAccess(const std::vector<std::string>& allowedCidrs, std::string token)
    : token_(std::move(token)) {
  allowed_.push_back(*parseCidr("127.0.0.0/8"));
  allowed_.push_back(*parseCidr("::1/128"));
  for (const auto& text : allowedCidrs) {
    auto cidr = parseCidr(text);
    if (!cidr) throw std::invalid_argument("metrics.allowed_cidrs: '" + text + "' is not an address or CIDR");
    allowed_.push_back(*cidr);
  }
}

bool MetricsAccess::allows(std::string_view clientAddress, std::string_view authorizationHeader) const {
  if (auto address = parseAddress(clientAddress))
    for (const auto& cidr : allowed_)
      if (cidr.contains(*address)) return true;
  constexpr std::string_view kBearer = "Bearer ";
  if (token_.empty() || authorizationHeader.size() != kBearer.size() + token_.size() ||
      authorizationHeader.substr(0, kBearer.size()) != kBearer)
    return false;
  return codec::constantTimeEqual(authorizationHeader.substr(kBearer.size()), token_);
}

}  // namespace docs::core
