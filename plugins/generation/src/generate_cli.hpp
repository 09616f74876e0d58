#pragma once
// `docsd generate <path|file.zip> --out DIR [--language en|ru|de] [--name NAME]`: the
// generation pipeline without a server, with the server's writers (the model's when
// llm.base_url is set, else the offline one). Writes the page tree as Markdown plus an
// index.json of the tree. Progress goes to stderr: a live line on a terminal, one line
// per stage in a pipe.

#include <iosfwd>
#include <string>
#include <vector>

#include "generation_settings.hpp"

namespace docs_generation {

// Settings from the DOCS_* environment only.
int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// Settings as the server reads them (generation_settings.hpp).
int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   const GenerationSettings& settings);

}  // namespace docs_generation
