#include "pipeline/pipeline.hpp"

#include "source_view.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>

#include "analysis/analysis_service.hpp"
#include "analysis/inventory.hpp"
#include "pipeline/worker_pool.hpp"
#include "writing/model_writer.hpp"

namespace fs = std::filesystem;

namespace docs_generation {
namespace {

bool hasPrefix(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

PlanOptions planOptionsFor(const std::string& root) {
  PlanOptions options;
  if (std::ifstream wiki(fs::path(root) / ".docs" / "wiki.json"); wiki) {
    std::stringstream text;
    text << wiki.rdbuf();
    options.wikiJson = text.str();
  }
  options.sourceRoot = root;
  return options;
}

}  // namespace

Analysis analyzeTree(const std::string& root, const AnalyzeRequest& request, Progress& progress) {
  progress.step(PipelineStep::Inventory, 0);
  InventoryLimits limits;
  if (request.maxFiles) limits.maxFiles = request.maxFiles;
  limits.checkpoint = [&] { progress.checkpoint(); };  // a walk over a huge tree stops with the run
  auto inventory = takeInventory(root, limits);
  progress.step(PipelineStep::Analysis, inventory.files.size());
  progress.checkpoint();
  AnalysisOptions options;
  if (!request.ctags.empty()) options.ctags = request.ctags;
  if (request.previous) {
    options.previous = request.previous;
    options.changed = request.changed;
  }
  options.onStep = [&](const std::string& what, std::size_t done, std::size_t total) {
    progress.analysing(what, done, total);
  };
  auto analysis = analyze(root, inventory, options, [&](std::size_t, std::size_t) { progress.checkpoint(); });
  progress.checkpoint();
  return analysis;
}

Pipeline::Pipeline(WriterSettings settings) : settings_(std::move(settings)) {}

PipelineResult Pipeline::run(const SourceTree& sources, const Analysis& analysis, PageSink& sink,
                             Progress& progress) const {
  PipelineResult result;
  progress.step(PipelineStep::Planning, 0);
  result.plan = planTopics(analysis, planOptionsFor(sources.root));
  result.pages = planPages(analysis, result.plan, sources.language);
  const Plan& plan = result.plan;
  progress.step(PipelineStep::Writing, result.pages.size());
  sink.prepare(result.pages);

  WriterContext writer;
  writer.language = sources.language;
  writer.sourceRoot = sources.root;
  writer.sourceUrl = [&](const std::string& path, int from, int to) {
    // In the server every project's links open its source view (the repository's host
    // is one click further, from there); `docsd generate` links the host or the tree.
    if (sources.sourceViewProject > 0) return sourceViewUrl(sources.sourceViewProject, path, from, to);
    return sourceLineUrl(sources.webAddress, sources.commit, path, from, to);
  };
  const bool withModel = settings_.model.configured();
  std::atomic<int> modelClaimed{0}, modelUsed{0}, modelFellBack{0};
  std::mutex reportMutex;  // progress.pageWritten, progress.modelFellBack
  // The offline page first, then the model's checked opening of a file page on top (or the
  // offline page as it is when the model's answer fails).
  auto compose = [&](PageDraft& page) {
    WriterContext context = writer;
    context.pageHref = [&sink, from = page.key](const std::string& to) { return sink.href(from, to); };
    writePage(page, analysis, plan, context);
    if (!withModel || !hasPrefix(page.key, "file:")) return;
    const auto* file = analysis.find(page.key.substr(5));
    if (!file || !modelWritesOpening(*file) || modelClaimed.fetch_add(1) >= settings_.maxModelPages) return;
    auto answer = writeFileOpeningWithModel(page, *file, analysis, context, settings_.model, &plan);
    if (answer.used) {
      ++modelUsed;
      return;
    }
    ++modelFellBack;
    std::lock_guard lock(reportMutex);
    progress.modelFellBack(page, file->path, answer.problem);
  };

  std::size_t total = 0, done = 0;
  for (const auto& page : result.pages)
    if (sink.wants(page)) ++total;
  PoolHooks hooks{[&] { progress.checkpoint(); }, [&] { progress.checkpoint(); }};
  auto writeWhere = [&](auto selects) {
    std::vector<PageDraft*> selected;
    for (auto& page : result.pages)
      if (selects(page) && sink.wants(page)) selected.push_back(&page);
    std::size_t threads = withModel ? static_cast<std::size_t>(settings_.model.concurrency) : 1;
    runBounded(
        selected.size(), threads,
        [&](std::size_t i) {
          progress.beforePage();
          sink.store(*selected[i], compose);
          if (!settings_.keepContent) selected[i]->content = docs::ydoc::Json();
          std::lock_guard lock(reportMutex);
          progress.pageWritten(++done, total);
        },
        hooks);
  };
  // The overview and the pages beside it (concepts, getting started, guides): all but topics and files.
  writeWhere([](const PageDraft& page) { return !hasPrefix(page.key, "topic:") && !hasPrefix(page.key, "file:"); });
  progress.step(PipelineStep::Topics, plan.topics.size());
  std::set<std::string> topLevel;
  for (const auto& topic : plan.topics) topLevel.insert(topic.key);
  progress.step(PipelineStep::TopicPages, topLevel.size());
  writeWhere([&](const PageDraft& page) { return topLevel.count(page.key) > 0; });
  progress.step(PipelineStep::Subtopics, 0);
  writeWhere([&](const PageDraft& page) { return hasPrefix(page.key, "topic:") && !topLevel.count(page.key); });
  progress.step(PipelineStep::FilePages, plan.filePages.size());
  writeWhere([](const PageDraft& page) { return hasPrefix(page.key, "file:"); });
  sink.finish(result.pages);
  result.modelUsed = modelUsed.load();
  result.modelFellBack = modelFellBack.load();
  return result;
}

}  // namespace docs_generation
