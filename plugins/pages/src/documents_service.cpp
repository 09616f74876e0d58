#include "documents_service.hpp"

#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/logger.hpp>
#include <docs/topics.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/error.hpp>

#include <stdexcept>

#include "document_store.hpp"

namespace docs_pages {

namespace {

std::span<const std::uint8_t> bytesOf(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

std::string textOf(const std::vector<std::uint8_t>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Stored content and log rows as one update. A row that does not apply was accepted by
// a writer and cannot be dropped silently: it is logged and skipped, as a room does.
std::string merged(docs::Context& context, std::int64_t pageId, std::string_view content,
                   const std::vector<docs::LoggedUpdate>& log) {
  if (log.empty()) return std::string(content);
  docs::ydoc::Doc doc;
  if (!content.empty()) doc.applyUpdate(bytesOf(content));
  for (const auto& entry : log) {
    try {
      doc.applyUpdate(bytesOf(entry.bytes));
    } catch (const docs::ydoc::YdocError& error) {
      context.logger().error("skipping a log entry that does not apply",
                             {{"page_id", pageId}, {"log_id", entry.id}, {"error", error.what()}});
    }
  }
  return textOf(doc.encodeStateAsUpdate());
}

}  // namespace

DocumentsService::DocumentsService(docs::Registry& registry) : context_(registry.context()) {
  // Optional, and only a sign: collab provides the history and folds the log. Without
  // it nobody would fold a logged server-side edit.
  registry.use(history_);
}

std::optional<std::string> DocumentsService::read(std::int64_t pageId) {
  auto stored = load(pageId);
  if (!stored) return std::nullopt;
  return merged(context_, pageId, stored->content, stored->log);
}

std::optional<docs::StoredDocument> DocumentsService::load(std::int64_t pageId) {
  // One snapshot: a fold between the two reads would otherwise drop rows from both.
  std::optional<docs::StoredDocument> document;
  context_.db().transaction([&](docs::Tx& tx) {
    tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    auto content = storedContent(tx, pageId);
    if (!content) return;
    document.emplace();
    document->content = std::move(*content);
    document->log = logOf(tx, pageId);
  });
  return document;
}

std::vector<std::int64_t> DocumentsService::append(std::string_view node, const std::vector<docs::LogRow>& rows) {
  return appendLog(context_.db(), node, rows);
}

std::vector<docs::LoggedUpdate> DocumentsService::readNode(std::int64_t pageId, std::string_view node,
                                                           std::int64_t fromId, std::int64_t toId) {
  return logOfNode(context_.db(), pageId, node, fromId, toId);
}

std::vector<std::int64_t> DocumentsService::pagesWithLog(int limit) {
  return docs_pages::pagesWithLog(context_.db(), limit);
}

bool DocumentsService::fold(
    std::int64_t pageId, std::string_view node, std::int64_t upToId,
    const std::function<std::string(const docs::FoldInput&)>& merge,
    const std::function<void(docs::Tx&, const docs::FoldedRows&, std::string_view storedBefore)>& inSameTx) {
  bool exists = true;
  context_.db().transaction([&](docs::Tx& tx) {
    lockDocument(tx, pageId);
    auto stored = storedContent(tx, pageId);
    if (!stored) {
      deleteLog(tx, pageId);  // the page is gone
      exists = false;
      return;
    }
    auto others = logOfOthers(tx, pageId, node, upToId);
    auto content = merge(docs::FoldInput{*stored, others});
    writeContent(tx, pageId, content);
    std::vector<std::int64_t> otherIds;
    for (const auto& other : others)
      if (otherIds.empty() || otherIds.back() != other.id) otherIds.push_back(other.id);
    auto folded = deleteFolded(tx, pageId, node, upToId, otherIds);
    inSameTx(tx, folded, *stored);
  });
  return exists;
}

std::optional<std::string> DocumentsService::lockStored(docs::Tx& tx, std::int64_t pageId) {
  lockDocument(tx, pageId);
  auto stored = storedContent(tx, pageId);
  if (stored && stored->empty()) stored = std::string("\0\0", 2);  // never written: the empty document
  return stored;
}

bool DocumentsService::apply(std::int64_t pageId, std::string_view update, std::optional<std::int64_t> userId) {
  std::int64_t projectId = 0;
  context_.db().transaction([&](docs::Tx& tx) {
    lockDocument(tx, pageId);
    auto page = tx.exec("SELECT project_id, content_bytea AS content FROM pages WHERE id = $1", {pageId});
    if (page.empty()) return;
    std::string stored = page[0].isNull("content") ? std::string() : page[0].bytes("content");
    // The update may build on edits still in the log: it is checked against them too.
    auto log = logOf(tx, pageId);
    docs::ydoc::Doc doc;
    try {
      if (!stored.empty()) doc.applyUpdate(bytesOf(stored));
      for (const auto& entry : log) {
        try {
          doc.applyUpdate(bytesOf(entry.bytes));
        } catch (const docs::ydoc::YdocError&) {
          // skipped, as every reader skips it
        }
      }
      const bool pendingBefore = doc.hasPending();
      doc.applyUpdate(bytesOf(update));
      if (!pendingBefore && doc.hasPending())
        throw std::invalid_argument("the update needs changes the page's document does not have");
    } catch (const docs::ydoc::YdocError& error) {
      throw std::invalid_argument(std::string("the update does not decode or apply: ") + error.what());
    }
    if (history_) {
      // Logged like an editor's update, so collab folds it with its author.
      tx.exec("INSERT INTO page_log (page_id, update, user_id, node) VALUES ($1, $2::bytea, $3, '')",
              {pageId, docs::Param::bytes(update), userId});
    } else {
      // The content takes in the log's rows too; they stay (folding them again changes nothing).
      writeContent(tx, pageId, textOf(doc.encodeStateAsUpdate()));
    }
    projectId = page[0].int64("project_id");
    docs::publishAfterCommit(context_.events(), tx, docs::kPageContentReplaced, {projectId, pageId});
  });
  return projectId > 0;
}

bool DocumentsService::replace(std::int64_t pageId, std::string_view document) {
  try {
    docs::ydoc::Doc check;
    check.applyUpdate(bytesOf(document));
  } catch (const docs::ydoc::YdocError& error) {
    throw std::invalid_argument(std::string("not a Yjs document update: ") + error.what());
  }
  bool exists = false;
  context_.db().transaction([&](docs::Tx& tx) {
    lockDocument(tx, pageId);
    exists = writeContent(tx, pageId, document);
    if (exists) deleteLog(tx, pageId);
  });
  return exists;
}

}  // namespace docs_pages
