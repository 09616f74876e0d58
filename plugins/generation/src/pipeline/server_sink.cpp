#include "pipeline/server_sink.hpp"

#include <cctype>
#include <filesystem>
#include <random>
#include <utility>

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/ydoc/prosemirror.hpp>
#include <nlohmann/json.hpp>

#include "stage_outcome.hpp"
#include "writing/page_writer.hpp"

namespace fs = std::filesystem;

namespace docs_generation {

using docs::Context;
using docs::Tx;

namespace {

std::uint64_t randomClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

// A warning alert appended to a page a person edited: what changed, and a link to the diff.
nlohmann::json editedNotice(const std::string& what, const PushChange& change) {
  return nlohmann::json{{"type", "doc"},
                        {"content",
                         {{{"type", "alert"},
                           {"attrs", {{"type", "warning"}}},
                           {"content",
                            {{{"type", "paragraph"},
                              {"content",
                               {{{"type", "text"},
                                 {"text", what + " (commit " + change.commit.substr(0, 12) +
                                              "). This page was edited here, so it was not rewritten. "}},
                                {{"type", "text"},
                                 {"text", "View the changes"},
                                 {"marks", {{{"type", "link"}, {"attrs", {{"href", change.compareUrl}}}}}}}}}}}}}}}};
}

}  // namespace

ProjectPagesSink::ProjectPagesSink(Context& context, const GenerationServices& services, std::int64_t projectId)
    : context_(context), services_(services), pages_(*services.pages), projectId_(projectId) {
  for (auto row : context_.db().exec("SELECT key, page_id, written_digest FROM generation_pages WHERE project_id = $1",
                                     {projectId})) {
    ids_[row.text("key")] = row.int64("page_id");
    writtenDigest_[row.text("key")] = row.text("written_digest");
  }
}

std::string ProjectPagesSink::href(const std::string&, const std::string& toKey) const {
  auto found = ids_.find(toKey);
  return found == ids_.end() ? std::string()
                             : "/projects/" + std::to_string(projectId_) + "/" + std::to_string(found->second);
}

std::int64_t ProjectPagesSink::createPage(const PageDraft& draft, std::int64_t parentId, bool resetDigest,
                                          const std::function<void(Tx&, std::int64_t)>& inSameTx) {
  std::int64_t id = 0;
  context_.db().transaction([&](Tx& tx) {
    id = pages_.create(tx, projectId_, parentId, draft.title.substr(0, 120), draft.type);
    tx.exec(resetDigest ? "INSERT INTO generation_pages (project_id, key, page_id) VALUES ($1, $2, $3)"
                          " ON CONFLICT (project_id, key) DO UPDATE SET page_id = EXCLUDED.page_id, written_digest = ''"
                        : "INSERT INTO generation_pages (project_id, key, page_id) VALUES ($1, $2, $3)"
                          " ON CONFLICT (project_id, key) DO UPDATE SET page_id = EXCLUDED.page_id",
            {projectId_, draft.key, id});
    if (inSameTx) inSameTx(tx, id);
  });
  ids_[draft.key] = id;
  if (resetDigest) writtenDigest_[draft.key] = "";
  return id;
}

FirstRunSink::FirstRunSink(Context& context, const GenerationServices& services, std::int64_t projectId,
                           const std::string& commit)
    : ProjectPagesSink(context, services, projectId),
      label_(commit.empty() ? std::string("Generated") : "Generated from " + commit.substr(0, 12)) {}

void FirstRunSink::prepare(const std::vector<PageDraft>& pages) {
  auto& projects = *services_.projects;
  for (const auto& draft : pages) {
    auto found = ids_.find(draft.key);
    if (found != ids_.end() && pages_.find(found->second)) continue;  // an earlier attempt made it
    std::int64_t parent = draft.parentKey.empty() ? 0 : ids_.at(draft.parentKey);
    createPage(draft, parent, false, [&](Tx& tx, std::int64_t id) {
      if (draft.key == "overview") projects.setDefaultPage(tx, projectId_, id);
    });
  }
}

void FirstRunSink::store(PageDraft& page, const std::function<void(PageDraft&)>& compose) {
  compose(page);
  std::int64_t pageId = ids_.at(page.key);
  auto bytes = docs::ydoc::proseMirrorJsonToUpdate(page.content, randomClientId());
  if (!services_.documents->replace(pageId,
                                    std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())))
    throw ProjectGone();  // its page (and so the project) was deleted meanwhile
  labelVersion(services_, context_.logger(), pageId, label_);
  context_.db().exec("UPDATE generation_pages SET written_digest = $3 WHERE project_id = $1 AND key = $2",
                     {projectId_, page.key, contentDigest(page.content)});
}

PushChange describePush(const std::vector<ChangedFile>& changes, const std::string& gitUrl, const std::string& before,
                        const std::string& commit) {
  PushChange change;
  for (const auto& file : changes) {
    if (file.status == 'D') change.deleted.insert(file.path);
    else change.changed.insert(file.path);
    if (file.status == 'R') change.deleted.insert(file.oldPath);
    if (file.status != 'M') change.structure = true;
  }
  change.before = before;
  change.commit = commit;
  change.compareUrl = gitUrl + "/compare/" + before + "..." + commit;
  return change;
}

SyncSink::SyncSink(Context& context, const GenerationServices& services, std::int64_t projectId, PushChange change,
                   std::function<void(const char*)> marked)
    : ProjectPagesSink(context, services, projectId), change_(std::move(change)), marked_(std::move(marked)) {}

std::set<std::string> SyncSink::pagesToRewrite(const std::vector<PageDraft>& pages) {
  std::map<std::string, const PageDraft*> byKey;
  for (const auto& draft : pages) byKey[draft.key] = &draft;
  // The pages of changed files and guides, and the topics above them.
  std::set<std::string> rewrite;
  bool structure = change_.structure;
  for (const auto& path : change_.changed) {
    for (const std::string& key : {"file:" + path, "guide:" + path})
      for (auto found = byKey.find(key); found != byKey.end(); found = byKey.find(found->second->parentKey)) {
        rewrite.insert(found->first);
        if (found->second->parentKey.empty()) break;
      }
    auto name = fs::path(path).filename().string();
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name.rfind("readme", 0) == 0) structure = true;
  }
  // Files came or went, or the README changed: the pages drawn from the whole tree.
  if (structure)
    for (const char* key : {"overview", "getting-started", "guides"}) rewrite.insert(key);
  if (!change_.changed.empty() || structure) rewrite.insert("concepts");  // usage counts move with any change
  for (const auto& draft : pages)
    if (!ids_.count(draft.key) || !existing_.count(ids_[draft.key])) rewrite.insert(draft.key);  // new pages
  return rewrite;
}

void SyncSink::prepare(const std::vector<PageDraft>& pages) {
  for (const auto& page : pages_.listProject(projectId_)) existing_.insert(page.id);  // one query, not one per page
  rewrite_ = pagesToRewrite(pages);
  if (marked_) marked_("find_pages");
  // Parents before children, so a new page's parent exists.
  for (const auto& draft : pages) {
    if (!rewrite_.count(draft.key)) continue;
    auto known = ids_.find(draft.key);
    if (known != ids_.end() && existing_.count(known->second)) continue;
    std::int64_t parent = draft.parentKey.empty() ? 0 : ids_.count(draft.parentKey) ? ids_[draft.parentKey] : 0;
    createPage(draft, parent, true);
    ++added;
  }
}

void SyncSink::keepEdited(std::int64_t pageId, const std::string& what) {
  appendToPage(services_, pageId, editedNotice(what, change_));
  labelVersion(services_, context_.logger(), pageId, "Sync to " + change_.commit.substr(0, 12));
  ++kept;
}

void SyncSink::store(PageDraft& page, const std::function<void(PageDraft&)>& compose) {
  std::int64_t pageId = ids_[page.key];
  const std::string& written = writtenDigest_[page.key];
  std::string commitLabel = change_.commit.substr(0, 12);
  // Labelled versions before and after the sync writes, so its changes can be read and undone.
  if (existing_.count(pageId)) labelVersion(services_, context_.logger(), pageId, "Before sync to " + commitLabel);
  if (!written.empty() && currentDigest(services_, pageId) != written) {
    keepEdited(pageId, "The source of this page changed");
    return;
  }
  compose(page);
  if (!replacePageContent(services_, pageId, page.content)) return;  // deleted meanwhile
  labelVersion(services_, context_.logger(), pageId, "Sync to " + commitLabel);
  context_.db().exec("UPDATE generation_pages SET written_digest = $3 WHERE project_id = $1 AND key = $2",
                     {projectId_, page.key, contentDigest(page.content)});
  ++rewritten;
}

void SyncSink::finish(const std::vector<PageDraft>& pages) {
  std::set<std::string> planned;
  for (const auto& draft : pages) planned.insert(draft.key);
  // Pages of files and guides that are gone (a person's edits keep a page, with a notice).
  for (const auto& [key, pageId] : ids_) {
    if ((key.rfind("file:", 0) != 0 && key.rfind("guide:", 0) != 0) || planned.count(key)) continue;
    if (!existing_.count(pageId)) continue;
    const std::string& written = writtenDigest_[key];
    if (!written.empty() && currentDigest(services_, pageId) != written) {
      labelVersion(services_, context_.logger(), pageId, "Before sync to " + change_.commit.substr(0, 12));
      keepEdited(pageId, "The file of this page was deleted from the repository");
      continue;
    }
    pages_.remove(pageId);
    context_.db().exec("DELETE FROM generation_pages WHERE project_id = $1 AND key = $2", {projectId_, key});
    ++removed;
  }
}

}  // namespace docs_generation
