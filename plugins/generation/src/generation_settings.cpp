#include "generation_settings.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <docs/config.hpp>
#include <docs/config_keys.hpp>
#include <docs/registry.hpp>

namespace docs_generation {

using docs::Config;
using docs::kGithubUrl;
using docs::Registry;

namespace {

// The settings lookup seen as a Config, so one reader serves the server and the command
// line (and docs::support::modelSettingsFrom reads the llm.* keys, renames and bounds, as ever).
class LookupConfig final : public Config {
 public:
  explicit LookupConfig(std::function<std::optional<std::string>(const std::string&)> value)
      : value_(std::move(value)) {}
  bool has(std::string_view key) const override { return find(key) != nullptr; }
  std::string getString(std::string_view key) const override {
    if (auto found = value_(std::string(key))) return *found;
    const auto* entry = find(key);
    return entry ? std::string(entry->defaultValue) : std::string();
  }
  std::int64_t getInt(std::string_view key) const override {
    std::string text = getString(key);
    try {
      std::size_t used = 0;
      auto number = std::stoll(text, &used);
      if (used == text.size()) return number;
    } catch (const std::exception&) {
    }
    throw std::invalid_argument("config key " + std::string(key) + " must be an integer, got '" + text + "'");
  }
  bool getBool(std::string_view key) const override { return getString(key) == "true"; }
  std::vector<std::string> getList(std::string_view key) const override;

 private:
  static const GenerationKey* find(std::string_view key) {
    for (const auto& entry : generationKeys())
      if (entry.name == key) return &entry;
    return nullptr;
  }
  std::function<std::optional<std::string>(const std::string&)> value_;
};

// "GitHub.com, gitlab.com " -> {"github.com", "gitlab.com"}
std::vector<std::string> lowerList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      item += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return items;
}

std::vector<std::string> LookupConfig::getList(std::string_view key) const { return lowerList(getString(key)); }

}  // namespace

const std::vector<GenerationKey>& generationKeys() {
  // The command's keys first, in the order `docsd help` lists them.
  static const std::vector<GenerationKey> keys = {
      {kGithubUrl.key, kGithubUrl.defaultValue, kGithubUrl.description, true},
      {"generation.allowed_hosts", "github.com",
       "Hosts other than github.url that repositories may be cloned from (public addresses only).", true},
      {"generation.allowed_git_hosts", "", "Deprecated name of generation.allowed_hosts.", true},
      {"generation.allow_local_sources", "false",
       "Allow file:// repositories and local paths (single-user machines and tests).", true},
      {"generation.allow_file_urls", "", "Deprecated name of generation.allow_local_sources.", true},
      {"generation.ctags", "ctags", "Universal Ctags executable (with JSON output).", true},
      {"generation.max_files", "20000", "Files documented per project at most.", true},
      {"generation.max_model_pages", "200",
       "File pages per run whose opening the model writes (with llm.base_url set).", true},
      // Declared by docs::support::declareModelKeys (chat_model.cpp), with these defaults.
      {"llm.base_url", "", "", true},
      {"llm.api_key", "", "", true},
      {"llm.model", "gpt-4o-mini", "", true},
      {"llm.timeout_s", "60", "", true},
      {"llm.max_attempts", "3", "", true},
      {"llm.concurrency", "4", "", true},
      {"llm.max_input_tokens", "6000", "", true},
      {"model.url", "", "", true},  // deprecated names of the llm.* keys
      {"model.api_key", "", "", true},
      {"model.name", "", "", true},
      {"model.timeout_ms", "", "", true},
      // The server's alone.
      {"generation.max_unpacked_mb", "1024", "Largest unpacked size of an uploaded ZIP or a repository's checkout.",
       false},
      {"generation.max_clone_mb", "2048", "Largest repository transfer, in MiB.", false},
      {"generation.max_run_seconds", "3600", "Time one run's analysis and writing may take (0: unbounded).", false},
      {"generation.reconcile_seconds", "300",
       "How often repository projects are compared with their remote (0: never).", false},
      {"generation.test_stage_delay_ms", "0", "For tests: a pause after each status change.", false},
      {"generation.fail_stage", "",
       "For tests: a stage that fails on purpose (unpack, analyze, overview, topics, topic_pages, subtopics, "
       "file_pages).",
       false},
  };
  return keys;
}

void declareGenerationKeys(Registry& registry) {
  for (const auto& key : generationKeys())
    if (!key.description.empty())
      registry.configKey(std::string(key.name), std::string(key.defaultValue), std::string(key.description));
  docs::support::declareModelKeys(registry);
}

GenerationSettings readGenerationSettings(const Config& config) {
  GenerationSettings settings;
  settings.ctags = config.getString("generation.ctags");
  settings.maxFiles = static_cast<std::uint64_t>(config.getInt("generation.max_files"));
  settings.maxUnpackedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_unpacked_mb")) << 20;
  settings.failStage = config.getString("generation.fail_stage");
  settings.stageDelayMs = static_cast<int>(config.getInt("generation.test_stage_delay_ms"));
  settings.model = docs::support::modelSettingsFrom(config, &settings.deprecatedInUse);
  settings.maxRunSeconds = static_cast<int>(config.getInt("generation.max_run_seconds"));
  settings.maxModelPages = static_cast<int>(std::max<std::int64_t>(0, config.getInt("generation.max_model_pages")));
  settings.reconcileSeconds = static_cast<int>(config.getInt("generation.reconcile_seconds"));
  settings.clonePolicy.trustedBase = config.getString(kGithubUrl.key);
  settings.clonePolicy.allowedHosts = lowerList(docs::support::readRenamed(
      config, {"generation.allowed_hosts", "generation.allowed_git_hosts", "github.com"}, &settings.deprecatedInUse));
  // The old name counts when the new one is left at its default (false).
  settings.clonePolicy.allowFileUrls = config.getBool("generation.allow_local_sources");
  if (!config.getString("generation.allow_file_urls").empty()) {
    settings.deprecatedInUse.push_back("generation.allow_file_urls (now generation.allow_local_sources)");
    settings.clonePolicy.allowFileUrls =
        settings.clonePolicy.allowFileUrls || config.getBool("generation.allow_file_urls");
  }
  settings.gitLimits.maxReceivedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_clone_mb")) << 20;
  // A checkout may hold as many files and folders as a ZIP may hold entries.
  settings.gitLimits.maxEntries = settings.maxFiles * 2;
  settings.gitLimits.maxUnpackedBytes = settings.maxUnpackedBytes;
  return settings;
}

GenerationSettings readGenerationSettings(const std::function<std::optional<std::string>(const std::string&)>& value) {
  return readGenerationSettings(LookupConfig(value));
}

}  // namespace docs_generation
