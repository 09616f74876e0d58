#pragma once
// Yjs bytes travel as std::string (log rows, relay messages, frames) and are decoded as
// bytes: views of one as the other, without copying.

#include <cstdint>
#include <span>
#include <string_view>

namespace docs_collab {

inline std::span<const std::uint8_t> bytesOf(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

inline std::string_view textOf(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace docs_collab
