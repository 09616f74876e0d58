#pragma once
// `docsd generate <path|file.zip> --out DIR [--language en|ru|de] [--name NAME]`: the
// generation pipeline without a server, with the server's writers (the model's when
// llm.base_url is set, else the offline one). Writes the page tree as Markdown plus an
// index.json of the tree. Progress goes to stderr: a live line on a terminal, one line
// per stage in a pipe.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <docs/support/chat_model.hpp>

namespace docs::generation {

// What the command line takes from the server's configuration (config file, DOCS_*).
struct GenerateCliSettings {
  std::string githubUrl;                  // trusted like github.url on the server
  std::vector<std::string> allowedHosts;  // other public hosts a URL may name
  bool allowFileUrls = false;             // file:// (also --allow-file-urls)
  std::string ctags;
  std::uint64_t maxFiles = 0;
  support::ModelSettings model;              // llm.*: url "" = the offline writer alone
  int maxModelPages = 200;                   // file pages whose opening the model writes
  std::vector<std::string> deprecatedInUse;  // old key names that are set
};

// The keys read, with the generation plugin's defaults (the plugin declares them; the
// command's entry in `docsd help` lists them).
const std::vector<std::pair<std::string, std::string>>& generateCliKeys();
// Settings from a lookup of those keys (nullopt: the default).
GenerateCliSettings generateCliSettings(const std::function<std::optional<std::string>(const std::string&)>& value);

// Settings from the DOCS_* environment only.
int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   const GenerateCliSettings& settings);

}  // namespace docs::generation
