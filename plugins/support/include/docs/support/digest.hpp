#pragma once
// Content digests the plugins compare and store: lower-case hex SHA-256.

#include <string>
#include <string_view>

namespace docs::support {

std::string sha256Hex(std::string_view data);

}  // namespace docs::support
