#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace docs::ydoc {

// `ydoc json|markdown|html|text FILE...`, `merge FILE...`, `state-vector FILE...`,
// `diff UPDATE SV`, `from-json PM.json`; "-" is stdin; `--base64` decodes input
// (and encodes binary output). Returns the process exit code.
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace docs::ydoc
