#pragma once
// Keeps a project's chunks in step with its analysis and pages: a job per project
// (after each generation run) and a job per changed page. Unchanged files and pages are
// skipped by digest, so a sync re-chunks only what changed.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rag_services.hpp"

namespace docs {
class Context;
class JobContext;
}  // namespace docs

namespace docs_rag {

struct IndexerSettings {
  std::size_t maxFileBytes = 1 << 20;  // longer files are indexed up to this size
};

class Indexer {
 public:
  static constexpr const char* kProjectJob = "rag.index_project";
  static constexpr const char* kPageJob = "rag.index_page";
  // Queued at each start: for the events rag missed while stopped (or lost to a crash),
  // queues a page job for each page whose updated_at differs from the one last indexed,
  // and drops the index of pages and projects that no longer exist.
  static constexpr const char* kCatchUpJob = "rag.catch_up";

  Indexer(docs::Context& context, const RagServices& services, IndexerSettings settings)
      : context_(context), services_(services), settings_(settings) {}

  void queueProject(std::int64_t projectId);
  void queuePage(std::int64_t projectId, std::int64_t pageId);
  void queueCatchUp();
  void dropPages(const std::vector<std::int64_t>& pageIds);
  void dropProject(std::int64_t projectId);

  void runProjectJob(docs::JobContext& job);
  void runPageJob(docs::JobContext& job);
  void runCatchUpJob(docs::JobContext& job);

 private:
  // Re-chunks one page when its text changed; false when the page is gone. A file's
  // page takes the file's role (a test file's page yields as its code does): `roles`
  // maps page ids to roles when the caller knows them, else the file's chunks tell.
  bool indexPage(std::int64_t projectId, std::int64_t pageId,
                 const std::map<std::int64_t, std::string>* roles = nullptr);

  docs::Context& context_;
  const RagServices& services_;
  IndexerSettings settings_;
};

}  // namespace docs_rag
