#pragma once
// The server's sinks: a project's pages (the pages plugin) with their history (labelled
// versions around every write). Which page each planned key became is kept in
// generation_pages with the digest of what generation last wrote there, so a resumed run
// writes no duplicates and a sync can tell a page a person edited.

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generation_services.hpp"
#include "pipeline/page_sink.hpp"
#include "sources/git_source.hpp"

namespace docs {
class Context;
class Tx;
}  // namespace docs

namespace docs_generation {

// A project's pages, as /projects/{project}/{page} links.
class ProjectPagesSink : public PageSink {
 public:
  std::string href(const std::string& fromKey, const std::string& toKey) const override;

 protected:
  ProjectPagesSink(docs::Context& context, const GenerationServices& services, std::int64_t projectId);
  // Creates the page of `draft` under `parentId` (0: at the top) and remembers it; with
  // `resetDigest` its old digest is forgotten. `inSameTx` runs in the creating transaction.
  std::int64_t createPage(const PageDraft& draft, std::int64_t parentId, bool resetDigest,
                          const std::function<void(docs::Tx&, std::int64_t)>& inSameTx = {});

  docs::Context& context_;
  const GenerationServices& services_;
  docs::Pages& pages_;
  std::int64_t projectId_;
  std::map<std::string, std::int64_t> ids_;           // planned key -> page id
  std::map<std::string, std::string> writtenDigest_;  // planned key -> digest last written ("" unknown)
};

// The first run: every planned page (the ones earlier attempts made are reused), each
// written with a version labelled "Generated from <commit>". The overview becomes the
// project's default page.
class FirstRunSink final : public ProjectPagesSink {
 public:
  FirstRunSink(docs::Context& context, const GenerationServices& services, std::int64_t projectId,
               const std::string& commit);
  void prepare(const std::vector<PageDraft>& pages) override;
  bool wants(const PageDraft&) const override { return true; }
  // Throws ProjectGone when the page went (and so the project).
  void store(PageDraft& page, const std::function<void(PageDraft&)>& compose) override;
  void finish(const std::vector<PageDraft>&) override {}

 private:
  std::string label_;
};

// What a push changed, from the diff of two commits.
struct PushChange {
  std::set<std::string> changed, deleted;  // paths; a rename is both
  bool structure = false;                  // files came or went
  std::string before, commit;              // the commits
  std::string compareUrl;                  // <git_url>/compare/<before>...<commit>
};
PushChange describePush(const std::vector<ChangedFile>& changes, const std::string& gitUrl, const std::string& before,
                        const std::string& commit);

// A sync: rewrites the pages of changed files and guides, the pages above them and, when
// files came or went or the README changed, the pages drawn from the whole tree; adds the
// pages of new files; removes those of deleted ones. A page a person edited since it was
// written is kept, with a notice linking to the changes. Versions labelled "Before sync
// to <commit>" and "Sync to <commit>" around each write.
class SyncSink final : public ProjectPagesSink {
 public:
  // `marked(name)` when the pages to rewrite are known (the sync's timing log).
  SyncSink(docs::Context& context, const GenerationServices& services, std::int64_t projectId, PushChange change,
           std::function<void(const char*)> marked = {});
  void prepare(const std::vector<PageDraft>& pages) override;
  bool wants(const PageDraft& page) const override { return rewrite_.count(page.key) > 0; }
  void store(PageDraft& page, const std::function<void(PageDraft&)>& compose) override;
  void finish(const std::vector<PageDraft>& pages) override;

  int rewritten = 0, added = 0, removed = 0, kept = 0;

 private:
  std::set<std::string> pagesToRewrite(const std::vector<PageDraft>& pages);
  // The person's edits stay; a warning alert says what changed upstream.
  void keepEdited(std::int64_t pageId, const std::string& what);

  PushChange change_;
  std::function<void(const char*)> marked_;
  std::set<std::int64_t> existing_;  // the project's pages now
  std::set<std::string> rewrite_;
};

}  // namespace docs_generation
