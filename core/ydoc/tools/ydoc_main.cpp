#include <iostream>
#include <string>
#include <vector>

#include "docs/ydoc/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return docs::ydoc::runCli(args, std::cin, std::cout, std::cerr);
}
