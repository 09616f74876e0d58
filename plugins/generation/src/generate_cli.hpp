#pragma once
// `docsd generate <path|file.zip> --out DIR [--language en|ru|de] [--name NAME]`: the
// generation pipeline without a server. Writes the page tree as Markdown plus an
// index.json of the tree. Progress goes to stderr: a live line on a terminal, one line
// per stage in a pipe.

#include <iosfwd>
#include <string>
#include <vector>

namespace docs::generation {

int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace docs::generation
