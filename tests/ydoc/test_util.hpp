#pragma once

#include <string>

#include "docs/ydoc/lib0.hpp"

namespace docs::ydoc::test {

inline Bytes fromHex(const std::string& hex) {
  Bytes out;
  std::string digits;
  for (const char c : hex) {
    if (std::isxdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  }
  for (size_t i = 0; i + 1 < digits.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return out;
}

inline std::string toHex(const Bytes& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (const uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0xF]);
  }
  return out;
}

}  // namespace docs::ydoc::test
