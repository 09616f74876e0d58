#include "indexer.hpp"

#include "searcher.hpp"

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>
#include <docs/support/body_fields.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <set>

#include "chunker.hpp"
#include "index_store.hpp"

namespace docs_rag {

using docs::JobContext;
using docs::JobSpec;
using docs::Json;
using docs::Tx;

namespace {

// Part of every digest: a new chunker rebuilds everything once.
constexpr const char* kChunkerVersion = "chunker-4";  // 4: Markdown and reStructuredText as sections, roles
constexpr std::size_t kAnalyzeAfterFiles = 100;       // files re-chunked in one run before ANALYZE

std::string pageMarkdown(const std::string& bytes) {
  docs::ydoc::Doc doc;
  doc.applyUpdate(docs::ydoc::Bytes(bytes.begin(), bytes.end()));
  return docs::ydoc::toMarkdown(docs::ydoc::toProseMirrorJson(doc));
}

}  // namespace

void Indexer::queueProject(std::int64_t projectId) {
  context_.jobs().enqueue(JobSpec(kProjectJob, {{"project_id", projectId}}, 5, std::chrono::seconds(0),
                                  "rag.project:" + std::to_string(projectId)));
}

void Indexer::queuePage(std::int64_t projectId, std::int64_t pageId) {
  // A short delay gathers a burst of edits into one run; an edit that arrives while the
  // page's job runs makes it run once more (it may have read the page before the edit).
  context_.jobs().enqueue(JobSpec(kPageJob, {{"project_id", projectId}, {"page_id", pageId}}, 5,
                                  std::chrono::seconds(2), "rag.page:" + std::to_string(pageId),
                                  docs::WhileRunning::RunAgain));
}

void Indexer::queueCatchUp() {
  context_.jobs().enqueue(JobSpec(kCatchUpJob, Json::object(), 5, std::chrono::seconds(0), kCatchUpJob));
}

void Indexer::dropPages(const std::vector<std::int64_t>& pageIds) { removePages(context_.db(), pageIds); }

void Indexer::dropProject(std::int64_t projectId) { removeProject(context_.db(), projectId); }

bool Indexer::indexPage(std::int64_t projectId, std::int64_t pageId, const std::map<std::int64_t, std::string>* roles) {
  auto& pages = *services_.pages;
  auto page = pages.find(pageId);
  if (!page || page->projectId != projectId) {
    removePages(context_.db(), {pageId});
    return false;
  }
  auto& db = context_.db();
  const auto indexed = indexedPage(db, pageId);
  // A guide's page repeats its file, which is indexed with the path and lines.
  if (pageHasSource(db, pageId)) {
    if (!indexed.digest.empty()) dropPageSections(db, pageId);
    if (indexed.digest.empty() && indexed.checkedUpdatedAt == page->updatedAt) return true;
    markPageChecked(db, projectId, pageId, page->updatedAt);
    return true;
  }
  auto bytes = services_.documents->read(pageId);
  std::string markdown;
  try {
    markdown = bytes && !bytes->empty() ? pageMarkdown(*bytes) : std::string();
  } catch (const docs::ydoc::YdocError& error) {
    context_.logger().warn("rag: unreadable page content", {{"page_id", pageId}, {"error", error.what()}});
    return true;
  }
  std::string role;
  if (roles) {
    if (auto found = roles->find(pageId); found != roles->end()) role = found->second;
  } else {
    role = fileRoleOfPage(context_.db(), projectId, pageId);
  }
  // Pages are written in the project's language: stemmed as that language.
  std::string textLanguage = "english";
  if (auto project = services_.projects->find(projectId)) textLanguage = textSearchLanguage(project->language);
  std::string digest =
      digestOf(std::string(kChunkerVersion) + "\n" + page->name + "\n" + role + "\n" + textLanguage + "\n" + markdown);
  if (digest == indexed.digest) {
    // Unchanged text (a move, say): only the time it was checked at.
    if (indexed.checkedUpdatedAt != page->updatedAt) markPageChecked(db, projectId, pageId, page->updatedAt);
    return true;
  }
  auto chunks = pageChunks(pageId, page->name, markdown);
  for (auto& chunk : chunks) {
    chunk.role = role;
    chunk.textLanguage = textLanguage;
  }
  // page->updatedAt was read before the content: an edit in between is found again later.
  db.transaction([&](Tx& tx) { replacePage(tx, projectId, pageId, digest, page->updatedAt, chunks); });
  return true;
}

void Indexer::runProjectJob(JobContext& job) {
  std::int64_t projectId = docs::support::idFromJson(job.payload().value("project_id", Json()));
  auto& projects = *services_.projects;
  if (projectId <= 0 || !projects.find(projectId)) return;  // deleted meanwhile: nothing to do
  auto& db = context_.db();
  // Built from nothing: the project has no usable index until this run ends.
  if (!hasChunks(db, projectId)) projects.setRagStatus(projectId, "idle");

  std::size_t work = 0, filesWritten = 0;
  auto pace = [&] {
    if (++work % 50 != 0) return;
    job.heartbeat();
    if (job.stopping()) throw std::runtime_error("shutting down; indexing resumes on restart");
  };

  std::map<std::int64_t, std::string> pageRoles;  // a file's page -> the file's role
  if (auto* analysisService = services_.analysis.get()) {
    if (auto analysis = analysisService->load(projectId)) {
      for (const auto& file : analysis->files)
        if (file.pageId > 0 && !isDocumentFile(file)) pageRoles[file.pageId] = file.role;
      auto stored = fileDigests(db, projectId);
      std::set<std::string> present;
      for (const auto& file : analysis->files) {
        present.insert(file.path);
        auto text = analysisService->readSource(projectId, file.path, settings_.maxFileBytes);
        if (!text) continue;
        std::string digest = digestOf(std::string(kChunkerVersion) + "\n" + std::to_string(file.pageId) + "\n" +
                                      file.role + "\n" + *text);
        auto found = stored.find(file.path);
        if (found != stored.end() && found->second == digest) continue;
        auto chunks = isDocumentFile(file) ? guideChunks(file, *text) : codeChunks(file, *text);
        db.transaction([&](Tx& tx) { replaceFile(tx, projectId, file.path, digest, chunks); });
        ++filesWritten;
        pace();
      }
      for (const auto& entry : stored) {
        const std::string& path = entry.first;  // a named variable: clang 14 cannot capture a structured binding
        if (!present.count(path)) db.transaction([&](Tx& tx) { removeFile(tx, projectId, path); });
      }
    }
  }
  for (const auto& page : services_.pages->listProject(projectId)) {
    indexPage(projectId, page.id, &pageRoles);
    pace();
  }
  if (!projects.find(projectId)) {
    removeProject(db, projectId);  // deleted while we worked
    return;
  }
  // Statistics before the first questions: until autovacuum gets to it, the planner
  // guesses at a table that just grew by thousands of rows (p50 65 ms instead of 17 at
  // 59k chunks in bench/rag).
  if (filesWritten >= kAnalyzeAfterFiles) db.exec("ANALYZE rag_chunks");
  projects.setRagStatus(projectId, "active");
}

void Indexer::runPageJob(JobContext& job) {
  std::int64_t projectId = docs::support::idFromJson(job.payload().value("project_id", Json()));
  std::int64_t pageId = docs::support::idFromJson(job.payload().value("page_id", Json()));
  if (projectId <= 0 || pageId <= 0) return;
  if (!indexPage(projectId, pageId)) return;
  // A project people write by hand (READY, never generated) is searchable once its
  // pages are indexed; generated ones become active at the end of their project job.
  auto& projects = *services_.projects;
  if (auto project = projects.find(projectId);
      project && project->status == docs::toString(docs::ProjectStatus::Ready) && project->ragStatus != "active")
    projects.setRagStatus(projectId, "active");
}

void Indexer::runCatchUpJob(JobContext& job) {
  auto& db = context_.db();
  for (auto projectId : indexedProjects(db)) {
    if (job.stopping()) return;  // queued again at the next start
    if (!services_.projects->find(projectId)) {
      removeProject(db, projectId);  // its project.deleted was lost
      continue;
    }
    auto checked = checkedPages(db, projectId);
    // Changed pages go to page jobs (deduplicated by page): never indexed twice at once.
    for (const auto& page : services_.pages->listProject(projectId)) {
      auto found = checked.find(page.id);
      if (found == checked.end() || found->second != page.updatedAt) queuePage(projectId, page.id);
      if (found != checked.end()) checked.erase(found);
    }
    // What is left has no page any more: its page.deleted was lost.
    std::vector<std::int64_t> gone;
    for (const auto& [pageId, updatedAt] : checked) gone.push_back(pageId);
    removePages(db, gone);
    job.heartbeat();
  }
}

}  // namespace docs_rag
