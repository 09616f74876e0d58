#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "docs/codec/codec.hpp"

namespace docs::codec {

std::string randomBytes(std::size_t count) {
  std::string out(count, '\0');
  // RAND_bytes takes an int count.
  for (std::size_t offset = 0; offset < count; offset += INT_MAX) {
    int length = static_cast<int>(std::min<std::size_t>(INT_MAX, count - offset));
    if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data() + offset), length) != 1)
      throw std::runtime_error("no random bytes from OpenSSL");
  }
  return out;
}

std::string randomHex(std::size_t bytes) { return hexEncode(randomBytes(bytes)); }

}  // namespace docs::codec
