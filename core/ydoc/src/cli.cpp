namespace docs::ydoc { }
#include "docs/ydoc/cli.hpp"
#include <iostream>
int docs::ydoc::runCli(const std::vector<std::string>&, std::istream&, std::ostream&, std::ostream&) { return 1; }
