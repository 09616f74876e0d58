#pragma once
// The generation pipeline, one for the server and the command line: a tree's inventory
// and analysis (analyzeTree), then its plan (topics, pages) and the pages written phase by
// phase into a PageSink (Pipeline::run). The server runs the two in separate jobs (the
// analysis is kept as analysis.json); `docsd generate` runs them one after the other.

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <docs/support/chat_model.hpp>

#include "analysis/analysis.hpp"
#include "pipeline/page_sink.hpp"
#include "planning/planner.hpp"
#include "writing/offline_writer.hpp"

namespace docs_generation {

// The steps of a run, in order: what Progress::step is told.
enum class PipelineStep {
  Inventory,   // the files worth documenting are listed
  Analysis,    // count: the files listed
  Planning,    // topics and pages are planned (the server's overview phase starts here)
  Writing,     // count: the pages planned; the overview and the pages beside it come first
  Topics,      // the top-level topics are settled
  TopicPages,  // their pages are written
  Subtopics,   // then the subtopics' pages
  FilePages,   // then the file pages
};

// What a run tells its caller. `step`, `analysing` and `checkpoint` are called on the
// thread that runs the pipeline; each may throw to stop the run.
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void step(PipelineStep step, std::size_t count) = 0;
  // ("symbols", code files done, code files) after each ctags batch, then ("reading", ...).
  virtual void analysing(const std::string& what, std::size_t done, std::size_t total) = 0;
  // After each page when one thread writes, about every 100 ms while a pool does, and
  // between the analysis's batches: a job's lease, a stop, a deadline.
  virtual void checkpoint() = 0;
  // Before a page is composed, on the thread that writes it.
  virtual void beforePage() = 0;
  // A page is stored, `done` of this run's `total`; calls are serialised.
  virtual void pageWritten(std::size_t done, std::size_t total) = 0;
  // The model's opening of a file page was not used: its offline page stays. Serialised.
  virtual void modelFellBack(const PageDraft& page, const std::string& path, const std::string& problem) = 0;
};

// Where the sources are and how the pages link to them.
struct SourceTree {
  std::string root;             // the unpacked or checked-out tree
  std::string language = "en";  // the pages': en | ru | de
  std::string webAddress;       // a repository's address: links to its lines at `commit` ("": paths in the tree)
  std::string commit;
  // The project whose source view the links open (the server's runs); 0: the web
  // address's lines, else paths in the tree (as `docsd generate` writes them).
  std::int64_t sourceViewProject = 0;
};

struct AnalyzeRequest {
  std::uint64_t maxFiles = 20000;
  std::string ctags = "ctags";
  // Incremental (a sync): files of `previous` not named in `changed` are not read again.
  const Analysis* previous = nullptr;
  const std::set<std::string>* changed = nullptr;
};

// Inventory and analysis of `root`. Throws CtagsFailed when ctags cannot run.
Analysis analyzeTree(const std::string& root, const AnalyzeRequest& request, Progress& progress);

// How pages are written: the offline writer, and the model's file openings on top.
struct WriterSettings {
  docs::support::ModelSettings model;  // url "": the offline writer alone (a sync never asks the model)
  int maxModelPages = 200;             // file pages per run whose opening the model writes
  // Whether the pages' content stays in the result once stored (`docsd generate --report`
  // measures it). Otherwise each page's content is freed as soon as the sink has it: on a
  // big tree that is most of a run's memory.
  bool keepContent = false;
};

struct PipelineResult {
  Plan plan;
  std::vector<PageDraft> pages;  // the whole plan; with keepContent, the pages the sink wanted with their content
  int modelUsed = 0;             // file openings the model wrote
  int modelFellBack = 0;         // ... and those where the offline page stayed
};

class Pipeline {
 public:
  explicit Pipeline(WriterSettings settings);
  // Plans the pages of `analysis` and writes those `sink` wants: the overview and the pages
  // beside it, the top-level topics, the subtopics, then the file pages (in parallel,
  // llm.concurrency at once, when the model writes).
  PipelineResult run(const SourceTree& sources, const Analysis& analysis, PageSink& sink, Progress& progress) const;

 private:
  WriterSettings settings_;
};

}  // namespace docs_generation
