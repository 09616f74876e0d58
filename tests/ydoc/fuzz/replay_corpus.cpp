// Runs the fuzz entry points over the committed corpus without libFuzzer, so
// every normal build checks that no corpus input crashes or hangs.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ydoc_fuzz_replay CORPUS_DIR\n";
    return 2;
  }
  size_t n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[1])) {
    if (!entry.is_regular_file()) continue;
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
    docs::ydoc::fuzz::decodeOne(bytes.data(), bytes.size());
    docs::ydoc::fuzz::mergeOne(bytes.data(), bytes.size());
    ++n;
  }
  std::cout << "replayed " << n << " corpus inputs\n";
  return n > 0 ? 0 : 1;
}
