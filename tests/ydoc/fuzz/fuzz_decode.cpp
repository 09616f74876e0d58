#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  docs::ydoc::fuzz::decodeOne(data, size);
  return 0;
}
