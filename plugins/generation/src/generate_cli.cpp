#include "generate_cli.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <docs/config.hpp>
#include <nlohmann/json.hpp>

#include "analysis/process_runner.hpp"
#include "pipeline/markdown_sink.hpp"
#include "pipeline/pipeline.hpp"
#include "sources/clone_policy.hpp"
#include "sources/git_source.hpp"
#include "sources/source_archive.hpp"
#include "writing/quality_report.hpp"
#include "writing/reader_report.hpp"

namespace fs = std::filesystem;

namespace docs_generation {
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

struct Arguments {
  std::string source, outDir, language = "en", name;
  bool report = false;
  bool allowFileUrls = false;
};

// The run on stderr: a line per step in a pipe; on a terminal one live line, redrawn
// ("[12s] analysis (900 files): symbols 400/750"). Collects the model's fallbacks.
class CommandProgress final : public Progress {
 public:
  CommandProgress(std::ostream& err, std::string writer)
      : err_(err), terminal_(::isatty(2)), writer_(std::move(writer)), started_(std::chrono::steady_clock::now()) {}
  void stage(const std::string& name) {
    if (terminal_ && !current_.empty()) err_ << "\n";
    current_ = name;
    if (!terminal_) err_ << "[" << elapsed() << "s] " << name << std::endl;
    else show(0, 0);
  }
  void finish() {
    if (terminal_) err_ << "\n";
  }
  void step(PipelineStep step, std::size_t count) override {
    if (step == PipelineStep::Inventory) stage("inventory");
    else if (step == PipelineStep::Analysis) stage("analysis (" + std::to_string(count) + " files)");
    else if (step == PipelineStep::Planning) stage("planning topics");
    else if (step == PipelineStep::Writing) stage("writing " + std::to_string(count) + " pages" + writer_);
  }
  void analysing(const std::string& what, std::size_t done, std::size_t total) override { show(done, total, what); }
  void checkpoint() override {}
  void beforePage() override {}
  void pageWritten(std::size_t done, std::size_t total) override { show(done, total); }
  void modelFellBack(const PageDraft&, const std::string& path, const std::string& problem) override {
    fallbacks.push_back(path + ": " + problem);
  }

  std::vector<std::string> fallbacks;

 private:
  void show(std::size_t done, std::size_t total, const std::string& what = "") {
    if (!terminal_) return;
    err_ << "\r\033[K[" << elapsed() << "s] " << current_;
    if (!what.empty()) err_ << ": " << what;
    if (total) err_ << " " << done << "/" << total;
    err_ << std::flush;
  }
  long elapsed() const {
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count());
  }
  std::ostream& err_;
  bool terminal_;
  std::string writer_;  // " (model NAME)" when the model writes
  std::chrono::steady_clock::time_point started_;
  std::string current_;
};

// mermaid itself parses every diagram written, in Chromium (scripts/mermaid-check.mjs,
// found through DOCS_MERMAID_CHECK or next to the build tree). Says why when it cannot.
nlohmann::json checkDiagramsInChromium(const std::string& outDir) {
  std::string script;
  if (const char* configured = std::getenv("DOCS_MERMAID_CHECK"); configured && *configured) script = configured;
  else {
    std::error_code error;
    auto self = fs::read_symlink("/proc/self/exe", error);
    auto candidate =
        self.parent_path().parent_path().parent_path() / "scripts" / "mermaid-check.mjs";  // build/bin/docsd
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

// Exit status 2 and the usage on a mistake; nullopt with the usage printed for --help.
std::optional<Arguments> parseArguments(const std::vector<std::string>& args, bool allowFileUrls, std::ostream& out,
                                        std::ostream& err, int& status) {
  Arguments parsed;
  parsed.allowFileUrls = allowFileUrls;
  status = 2;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument(args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--out") parsed.outDir = value();
    else if (args[i] == "--language") parsed.language = value();
    else if (args[i] == "--name") parsed.name = value();
    else if (args[i] == "--report") parsed.report = true;
    else if (args[i] == "--allow-local-sources" || args[i] == "--allow-file-urls")
      parsed.allowFileUrls = true;  // the old name too
    else if (args[i] == "--help" || args[i] == "-h") {
      out << kUsage;
      status = 0;
      return std::nullopt;
    } else if (parsed.source.empty() && !args[i].empty() && args[i][0] != '-') parsed.source = args[i];
    else {
      err << "docsd generate: unknown argument " << args[i] << "\n" << kUsage;
      return std::nullopt;
    }
  }
  if (parsed.source.empty() || parsed.outDir.empty()) {
    err << kUsage;
    return std::nullopt;
  }
  if (parsed.language != "en" && parsed.language != "ru" && parsed.language != "de") {
    err << "docsd generate: --language must be en, ru or de\n";
    return std::nullopt;
  }
  return parsed;
}

// The tree to document: the folder itself, or a clone or an unpacked ZIP in a private
// temporary folder (removed at the end).
struct LocalSources {
  SourceTree tree;
  std::optional<fs::path> temporary;
  std::string error;  // why there are none
  ~LocalSources() {
    if (temporary) fs::remove_all(*temporary);
  }
};

void fetchSources(const Arguments& args, const GenerationSettings& settings, CommandProgress& progress,
                  LocalSources& sources) {
  sources.tree.root = args.source;
  sources.tree.language = args.language;
  if (args.source.find("://") != std::string::npos) {
    // The server's rules: github.url is trusted, other hosts must be allowed and public;
    // file:// only when asked for. The addresses checked are the ones the clone connects to.
    ClonePolicy policy = settings.clonePolicy;
    policy.allowFileUrls = args.allowFileUrls;
    auto checked = checkCloneUrl(args.source, policy);
    if (checked.refused) {
      sources.error = *checked.refused;
      return;
    }
    progress.stage("cloning");
    sources.temporary = privateTempDir();
    GitLimits limits;  // the server's defaults; a checkout holds at most twice generation.max_files
    if (settings.maxFiles) limits.maxEntries = settings.maxFiles * 2;
    auto result = cloneRepository(checked.target, (*sources.temporary / "source").string(), std::nullopt, limits);
    if (!result.ok) {
      progress.finish();
      sources.error = result.error;
      return;
    }
    sources.tree.root = (*sources.temporary / "source").string();
    if (args.source.rfind("file://", 0) != 0) {  // links to lines of a cloned repository
      sources.tree.webAddress = args.source;
      sources.tree.commit = result.commit;
    }
  } else if (fs::is_regular_file(args.source)) {
    progress.stage("unpacking");
    sources.temporary = privateTempDir();
    auto result = unpackZip(args.source, (*sources.temporary / "source").string(), ArchiveLimits{});
    if (!result.ok) {
      progress.finish();
      sources.error = result.error;
      return;
    }
    sources.tree.root = (*sources.temporary / "source").string();
  } else if (!fs::is_directory(args.source)) {
    sources.error = args.source + " is neither a folder nor a ZIP file";
  }
}

void printReport(const Analysis& analysis, const PipelineResult& result, const Arguments& args, const std::string& root,
                 std::ostream& out) {
  auto figures = measureQuality(analysis, result.pages, root).toJson();
  figures["pages"] = result.pages.size();
  figures["files"] = analysis.files.size();
  figures["mermaid_in_chromium"] = checkDiagramsInChromium(args.outDir);
  figures["reader"] = readerFigures(analysis, result.plan, result.pages, root);
  std::ofstream(fs::path(args.outDir) / "report.json") << figures.dump(2) << "\n";
  out << figures.dump(2) << "\n";
}

}  // namespace

int runGenerateCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto settings = readGenerationSettings([](const std::string& key) -> std::optional<std::string> {
    const char* text = std::getenv(docs::envNameForKey(key).c_str());
    if (!text || !*text) return std::nullopt;
    return std::string(text);
  });
  return runGenerateCli(args, out, err, settings);
}

int runGenerateCli(const std::vector<std::string>& rawArgs, std::ostream& out, std::ostream& err,
                   const GenerationSettings& settings) {
  int status = 0;
  auto args = parseArguments(rawArgs, settings.clonePolicy.allowFileUrls, out, err, status);
  if (!args) return status;
  for (const auto& old : settings.deprecatedInUse) err << "docsd generate: deprecated setting " << old << "\n";
  const bool withModel = settings.model.configured();
  CommandProgress progress(err, withModel ? " (model " + settings.model.model + ")" : "");
  LocalSources sources;
  fetchSources(*args, settings, progress, sources);
  if (!sources.error.empty()) {
    err << "docsd generate: " << sources.error << "\n";
    return 1;
  }
  Analysis analysis;
  try {
    analysis = analyzeTree(sources.tree.root, {settings.maxFiles, settings.ctags, nullptr, nullptr}, progress);
  } catch (const CtagsFailed& failed) {
    progress.finish();
    err << "docsd generate: " << failed.what() << "\n";
    return 1;
  }
  if (!args->name.empty()) analysis.name = args->name;
  else if (analysis.name.empty() || sources.temporary) analysis.name = fs::path(args->source).stem().string();
  MarkdownDirSink sink(args->outDir);
  auto result =
      Pipeline({settings.model, settings.maxModelPages, args->report}).run(sources.tree, analysis, sink, progress);
  progress.finish();
  if (args->report) printReport(analysis, result, *args, sources.tree.root, out);
  out << "wrote " << result.pages.size() << " pages (" << result.plan.topics.size() << " topics, "
      << result.plan.filePages.size() << " file pages) from " << analysis.files.size() << " files to " << args->outDir
      << "\n";
  for (const auto& why : progress.fallbacks)
    err << "docsd generate: the model's page was not used, the offline page stays: " << why << "\n";
  if (withModel)
    out << "writer: model " << settings.model.model << " at " << settings.model.url << " wrote the opening of "
        << result.modelUsed << " file pages; " << progress.fallbacks.size() << " fell back to the offline writer\n";
  else out << "writer: offline (no llm.base_url)\n";
  return 0;
}

}  // namespace docs_generation
