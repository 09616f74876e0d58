#include "generate_cli.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <docs/config.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include "analysis/analysis.hpp"
#include "analysis/analysis_service.hpp"
#include "sources/clone_policy.hpp"
#include "sources/git_source.hpp"
#include "analysis/inventory.hpp"
#include "writing/model_writer.hpp"
#include "writing/offline_writer.hpp"
#include "planning/planner.hpp"
#include "analysis/process_runner.hpp"
#include "writing/quality_report.hpp"
#include "writing/reader_report.hpp"
#include "sources/source_archive.hpp"

namespace fs = std::filesystem;

namespace docs::generation {
namespace {

const char* kUsage =
    "usage: docsd generate <path|file.zip|https-url> --out DIR [--language en|ru|de] [--name NAME] [--report]\n"
    "       [--allow-local-sources]\n"
    "Writes the documentation of a source tree as Markdown files plus index.json.\n"
    "Settings (github.url, generation.allowed_hosts, generation.allow_local_sources, generation.ctags,\n"
    "generation.max_files, generation.max_model_pages, llm.*) come from the config file (docsd --config FILE\n"
    "generate ..., or DOCS_CONFIG) and DOCS_* variables, as for the server. With llm.base_url set, an\n"
    "OpenAI-compatible model writes each file page's opening (checked; the offline page stays when it fails);\n"
    "without it the offline writer writes every page. The last line names the writer that ran.\n"
    "--report also prints the quality figures as JSON (and writes them to DIR/report.json), with every diagram\n"
    "parsed by mermaid in Chromium when scripts/mermaid-check.mjs can run (DOCS_MERMAID_CHECK names it).\n";

// The Markdown file of a page, relative to the output folder.
std::string outputPath(const std::string& key) {
  if (key == "overview") return "index.md";
  auto safe = [](std::string text) {
    for (auto& c : text)
      if (c == ':' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    return text;
  };
  if (key.rfind("topic:", 0) == 0) {
    std::string folder = key.substr(6);
    return "topics/" + safe(folder == "." ? "top-level" : folder) + ".md";
  }
  if (key.rfind("file:", 0) == 0) return "files/" + safe(key.substr(5)) + ".md";
  if (key.rfind("guide:", 0) == 0) return "guides/" + safe(key.substr(6)) + ".md";
  return safe(key) + ".md";
}

std::string relativeLink(const std::string& from, const std::string& to) {
  return fs::path(to).lexically_relative(fs::path(from).parent_path()).generic_string();
}

class Progress {
 public:
  explicit Progress(std::ostream& err) : err_(err), terminal_(::isatty(2)), started_(std::chrono::steady_clock::now()) {}
  void stage(const std::string& name) {
    if (terminal_ && !current_.empty()) err_ << "\n";
    current_ = name;
    if (!terminal_) err_ << "[" << elapsed() << "s] " << name << std::endl;
    else show(0, 0);
  }
  // On a terminal, redraws the stage's line: "[12s] analysis (900 files): symbols 400/750".
  void show(std::size_t done, std::size_t total, const std::string& step = "") {
    if (!terminal_) return;
    err_ << "\r\033[K[" << elapsed() << "s] " << current_;
    if (!step.empty()) err_ << ": " << step;
    if (total) err_ << " " << done << "/" << total;
    err_ << std::flush;
  }
  void finish() {
    if (terminal_) err_ << "\n";
  }

 private:
  long elapsed() const {
    return static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count());
  }
  std::ostream& err_;
  bool terminal_;
  std::chrono::steady_clock::time_point started_;
  std::string current_;
};

}  // namespace

namespace {

// mermaid itself parses every diagram written, in Chromium (scripts/mermaid-check.mjs,
// found through DOCS_MERMAID_CHECK or next to the build tree). Says why when it cannot.
nlohmann::json checkDiagramsInChromium(const std::string& outDir) {
  std::string script;
  if (const char* configured = std::getenv("DOCS_MERMAID_CHECK"); configured && *configured) script = configured;
  else {
    std::error_code error;
    auto self = fs::read_symlink("/proc/self/exe", error);
    auto candidate = self.parent_path().parent_path().parent_path() / "scripts" / "mermaid-check.mjs";  // build/bin/docsd
    if (!error && fs::exists(candidate)) script = candidate.string();
  }
  if (script.empty()) return "not checked: scripts/mermaid-check.mjs not found (set DOCS_MERMAID_CHECK)";
  auto result = runProcess({"node", script, fs::absolute(outDir).string()}, fs::current_path().string(), 600);
  auto json = nlohmann::json::parse(result.output, nullptr, false);
  if (result.exitCode != 0 || json.is_discarded() || !json.is_object())
    return "not checked: the checker failed (node, playwright-core, mermaid and Chromium are needed)";
  return json;
}

// A fresh private folder for unpacked or cloned sources (not a guessable name).
fs::path privateTempDir() {
  std::string pattern = (fs::temp_directory_path() / "docsd-generate-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
  return pattern;
}

std::vector<std::string> lowerList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else if (c != ' ' && c != '\t') {
      item += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return items;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& generateCliKeys() {
  // Same defaults as generation_plugin.cpp declares.
  static const std::vector<std::pair<std::string, std::string>> keys = {
      {"github.url", "https://github.com"},
      {"generation.allowed_hosts", "github.com"},
      {"generation.allowed_git_hosts", ""},  // deprecated name of allowed_hosts
      {"generation.allow_local_sources", "false"},
      {"generation.allow_file_urls", ""},  // deprecated name of allow_local_sources
      {"generation.ctags", "ctags"},
      {"generation.max_files", "20000"},
      {"generation.max_model_pages", "200"},
      // Same defaults as support::declareModelKeys (chat_model.cpp).
      {"llm.base_url", ""},
      {"llm.api_key", ""},
      {"llm.model", "gpt-4o-mini"},
      {"llm.timeout_s", "60"},
      {"llm.max_attempts", "3"},
      {"llm.concurrency", "4"},
      {"llm.max_input_tokens", "6000"},
      {"model.url", ""},  // deprecated names of the llm.* keys
      {"model.api_key", ""},
      {"model.name", ""},
      {"model.timeout_ms", ""}};
  return keys;
}

namespace {

// The settings lookup seen as a Config, so support::modelSettingsFrom reads the llm.*
// keys (renames, bounds) exactly as it does for the server.
class LookupConfig final : public docs::Config {
 public:
  explicit LookupConfig(std::function<std::string(const std::string&)> get) : get_(std::move(get)) {}
  bool has(std::string_view key) const override {
    for (const auto& entry : generateCliKeys())
      if (entry.first == key) return true;
    return false;
  }
  std::string getString(std::string_view key) const override { return get_(std::string(key)); }
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
  std::vector<std::string> getList(std::string_view key) const override { return lowerList(getString(key)); }

 private:
  std::function<std::string(const std::string&)> get_;
};

}  // namespace

GenerateCliSettings generateCliSettings(const std::function<std::optional<std::string>(const std::string&)>& value) {
  auto get = [&](const std::string& key) {
    if (auto found = value(key)) return *found;
    for (const auto& [name, fallback] : generateCliKeys())
      if (name == key) return fallback;
    return std::string();
  };
  GenerateCliSettings settings;
  settings.githubUrl = get("github.url");
  // As the plugin reads them: the old names count while the new ones keep their defaults.
  std::string hosts = get("generation.allowed_hosts");
  if (hosts == "github.com" && !get("generation.allowed_git_hosts").empty()) hosts = get("generation.allowed_git_hosts");
  settings.allowedHosts = lowerList(hosts);
  settings.allowFileUrls = get("generation.allow_local_sources") == "true" || get("generation.allow_file_urls") == "true";
  settings.ctags = get("generation.ctags");
  try {
    settings.maxFiles = std::stoull(get("generation.max_files"));
  } catch (const std::exception&) {
    settings.maxFiles = InventoryLimits{}.maxFiles;
  }
  LookupConfig config(get);
  settings.model = support::modelSettingsFrom(config, &settings.deprecatedInUse);
  settings.maxModelPages = static_cast<int>(std::max<std::int64_t>(0, config.getInt("generation.max_model_pages")));
  return settings;
}

int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto settings = generateCliSettings([](const std::string& key) -> std::optional<std::string> {
    const char* text = std::getenv(docs::envNameForKey(key).c_str());
    if (!text || !*text) return std::nullopt;
    return std::string(text);
  });
  return runGenerateCli(args, out, err, settings);
}

int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   const GenerateCliSettings& settings) {
  std::string source, outDir, language = "en", name;
  bool report = false;
  bool allowFileUrls = settings.allowFileUrls;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--out") outDir = value();
    else if (args[i] == "--language") language = value();
    else if (args[i] == "--name") name = value();
    else if (args[i] == "--report") report = true;
    else if (args[i] == "--allow-local-sources" || args[i] == "--allow-file-urls") allowFileUrls = true;  // the old name too
    else if (args[i] == "--help" || args[i] == "-h") {
      out << kUsage;
      return 0;
    } else if (source.empty() && !args[i].empty() && args[i][0] != '-') source = args[i];
    else {
      err << "docsd generate: unknown argument " << args[i] << "\n" << kUsage;
      return 2;
    }
  }
  if (source.empty() || outDir.empty()) {
    err << kUsage;
    return 2;
  }
  if (language != "en" && language != "ru" && language != "de") {
    err << "docsd generate: --language must be en, ru or de\n";
    return 2;
  }
  for (const auto& old : settings.deprecatedInUse) err << "docsd generate: deprecated setting " << old << "\n";
  Progress progress(err);
  std::string root = source;
  std::optional<fs::path> unpacked;
  std::string webAddress, commit;  // for links to lines of a cloned repository
  if (source.find("://") != std::string::npos) {
    // The server's rules: github.url is trusted, other hosts must be allowed and
    // public; file:// only when asked for.
    ClonePolicy policy;
    policy.trustedBase = settings.githubUrl;
    policy.allowedHosts = settings.allowedHosts;
    policy.allowFileUrls = allowFileUrls;
    // The addresses checked are the ones the clone connects to.
    auto checked = checkCloneUrl(source, policy);
    if (checked.refused) {
      err << "docsd generate: " << *checked.refused << "\n";
      return 1;
    }
    progress.stage("cloning");
    fs::path temp = privateTempDir();
    GitLimits limits;  // the server's defaults; a checkout holds at most twice generation.max_files
    if (settings.maxFiles) limits.maxEntries = settings.maxFiles * 2;
    auto result = cloneRepository(checked.target, (temp / "source").string(), std::nullopt, limits);
    if (!result.ok) {
      fs::remove_all(temp);
      progress.finish();
      err << "docsd generate: " << result.error << "\n";
      return 1;
    }
    unpacked = temp;
    root = (temp / "source").string();
    if (source.rfind("file://", 0) != 0) {
      webAddress = source;
      commit = result.commit;
    }
  } else if (fs::is_regular_file(source)) {
    progress.stage("unpacking");
    fs::path temp = privateTempDir();
    auto result = unpackZip(source, (temp / "source").string(), ArchiveLimits{});
    if (!result.ok) {
      fs::remove_all(temp);
      progress.finish();
      err << "docsd generate: " << result.error << "\n";
      return 1;
    }
    unpacked = temp;
    root = (temp / "source").string();
  } else if (!fs::is_directory(source)) {
    err << "docsd generate: " << source << " is neither a folder nor a ZIP file\n";
    return 1;
  }
  struct Cleanup {
    std::optional<fs::path>& path;
    ~Cleanup() {
      if (path) fs::remove_all(*path);
    }
  } cleanup{unpacked};

  progress.stage("inventory");
  InventoryLimits inventoryLimits;
  if (settings.maxFiles) inventoryLimits.maxFiles = settings.maxFiles;
  auto inventory = takeInventory(root, inventoryLimits);
  progress.stage("analysis (" + std::to_string(inventory.files.size()) + " files)");
  AnalysisOptions analysisOptions;
  if (!settings.ctags.empty()) analysisOptions.ctags = settings.ctags;
  analysisOptions.onStep = [&](const std::string& step, std::size_t done, std::size_t total) { progress.show(done, total, step); };
  Analysis analysis;
  try {
    analysis = analyze(root, inventory, analysisOptions);
  } catch (const CtagsFailed& failed) {
    progress.finish();
    err << "docsd generate: " << failed.what() << "\n";
    return 1;
  }
  if (!name.empty()) analysis.name = name;
  else if (analysis.name.empty() || unpacked) analysis.name = fs::path(source).stem().string();
  progress.stage("planning topics");
  PlanOptions planOptions;
  if (std::ifstream wiki(fs::path(root) / ".docs" / "wiki.json"); wiki) {
    std::stringstream text;
    text << wiki.rdbuf();
    planOptions.wikiJson = text.str();
  }
  planOptions.sourceRoot = root;
  auto plan = planTopics(analysis, planOptions);
  auto pages = planPages(analysis, plan, language);
  const bool withModel = settings.model.configured();
  progress.stage("writing " + std::to_string(pages.size()) + " pages" + (withModel ? " (model " + settings.model.model + ")" : ""));
  std::map<std::string, std::string> paths;
  fs::create_directories(outDir);
  for (const auto& page : pages) {
    paths[page.key] = outputPath(page.key);
    fs::create_directories((fs::path(outDir) / paths[page.key]).parent_path());  // here, not racing in the pool
  }
  // As on the server: the offline page first, then the model's checked opening of a file
  // page on top (or the offline page as it is when the model's answer fails).
  std::mutex mutex;  // progress, the fallback list
  std::size_t done = 0;
  std::atomic<int> modelClaimed{0}, modelUsed{0};
  std::vector<std::string> fallbacks;
  auto compose = [&](PageDraft& page) {
    const std::string& self = paths.at(page.key);
    WriterContext context;
    context.language = language;
    context.sourceRoot = root;
    context.sourceUrl = [&](const std::string& path, int from, int to) {
      return sourceLineUrl(webAddress, commit, path, from, to);
    };
    context.pageHref = [&](const std::string& key) {
      auto found = paths.find(key);
      return found == paths.end() ? std::string() : relativeLink(self, found->second);
    };
    writePage(page, analysis, plan, context);
    if (withModel && page.key.rfind("file:", 0) == 0) {
      const auto* file = analysis.find(page.key.substr(5));
      if (file && modelWritesOpening(*file) && modelClaimed.fetch_add(1) < settings.maxModelPages) {
        auto result = writeFileOpeningWithModel(page, *file, analysis, context, settings.model, &plan);
        if (result.used) ++modelUsed;
        else {
          std::lock_guard lock(mutex);
          fallbacks.push_back(file->path + ": " + result.problem);
        }
      }
    }
    std::ofstream(fs::path(outDir) / self) << ydoc::toMarkdown(page.content);
    std::lock_guard lock(mutex);
    progress.show(++done, pages.size());
  };
  // The model's answers are the slow part: llm.concurrency pages at once, as the server does.
  std::size_t threads = withModel ? std::min<std::size_t>(static_cast<std::size_t>(settings.model.concurrency), pages.size()) : 1;
  if (threads <= 1) {
    for (auto& page : pages) compose(page);
  } else {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        try {
          for (std::size_t i; !stop && (i = next++) < pages.size();) compose(pages[i]);
        } catch (...) {
          std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
          stop = true;
        }
      });
    for (auto& worker : pool) worker.join();
    if (failure) std::rethrow_exception(failure);
  }
  std::map<std::string, std::vector<std::size_t>> children;
  for (std::size_t i = 0; i < pages.size(); ++i) children[pages[i].parentKey].push_back(i);
  std::function<nlohmann::json(const std::string&)> tree = [&](const std::string& parent) {
    nlohmann::json list = nlohmann::json::array();
    for (auto i : children[parent])
      list.push_back({{"key", pages[i].key}, {"title", pages[i].title}, {"type", pages[i].type},
                      {"path", paths[pages[i].key]}, {"children", tree(pages[i].key)}});
    return list;
  };
  nlohmann::json index = tree("");
  std::ofstream(fs::path(outDir) / "index.json") << index.dump(2) << "\n";
  progress.finish();
  if (report) {
    auto figures = measureQuality(analysis, pages, root).toJson();
    figures["pages"] = pages.size();
    figures["files"] = analysis.files.size();
    figures["mermaid_in_chromium"] = checkDiagramsInChromium(outDir);
    figures["reader"] = readerFigures(analysis, plan, pages, root);
    std::ofstream(fs::path(outDir) / "report.json") << figures.dump(2) << "\n";
    out << figures.dump(2) << "\n";
  }
  out << "wrote " << pages.size() << " pages (" << plan.topics.size() << " topics, " << plan.filePages.size()
      << " file pages) from " << analysis.files.size() << " files to " << outDir << "\n";
  for (const auto& why : fallbacks) err << "docsd generate: the model's page was not used, the offline page stays: " << why << "\n";
  if (withModel)
    out << "writer: model " << settings.model.model << " at " << settings.model.url << " wrote the opening of "
        << modelUsed.load() << " file pages; " << fallbacks.size() << " fell back to the offline writer\n";
  else
    out << "writer: offline (no llm.base_url)\n";
  return 0;
}

}  // namespace docs::generation
