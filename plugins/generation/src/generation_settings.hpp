#pragma once
// The generation settings: one table of keys with their defaults, which the plugin
// declares (configure) and `docsd generate` reads, and one reader of them for both.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <docs/support/chat_model.hpp>

#include "sources/clone_policy.hpp"
#include "sources/git_source.hpp"

namespace docs {
class Config;
class Registry;
}  // namespace docs

namespace docs_generation {

struct GenerationSettings {
  std::string failStage;  // tests: a stage that fails on purpose ("" = none)
  int stageDelayMs = 0;   // tests: a pause after each status, to stop a run in the middle
  std::string ctags = "ctags";
  std::uint64_t maxFiles = 20000;
  std::uint64_t maxUnpackedBytes = 1ull << 30;
  ClonePolicy clonePolicy;
  GitLimits gitLimits;
  docs::support::ModelSettings model;        // url "" = the offline writer alone
  int maxModelPages = 200;                   // file pages per run the model writes the opening of
  int reconcileSeconds = 300;                // repository projects compared with their remote this often
  int maxRunSeconds = 3600;                  // analysis and writing of one run together (0: unbounded)
  std::vector<std::string> deprecatedInUse;  // old key names that are set ("old (now new)")
};

struct GenerationKey {
  std::string_view name;
  std::string_view defaultValue;
  std::string_view description;  // "": declared by docs::support::declareModelKeys (the llm.* keys)
  bool readByCommand;            // `docsd generate` reads it (listed by `docsd help`)
};

// Every key the plugin reads, with its default.
const std::vector<GenerationKey>& generationKeys();
// Declares them (the llm.* keys through docs::support::declareModelKeys, which owns them).
void declareGenerationKeys(docs::Registry& registry);
// The settings from a configuration that has the keys declared.
GenerationSettings readGenerationSettings(const docs::Config& config);
// The same from a lookup of the keys (nullopt: the default): `docsd generate`.
GenerationSettings readGenerationSettings(const std::function<std::optional<std::string>(const std::string&)>& value);

}  // namespace docs_generation
