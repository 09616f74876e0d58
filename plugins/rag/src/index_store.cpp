#include "index_store.hpp"

#include <docs/codec/codec.hpp>
#include <docs/db.hpp>

#include <nlohmann/json.hpp>

#include "identifiers.hpp"

namespace docs_rag {

using docs::Db;
using docs::Tx;

namespace {

constexpr std::size_t kBatch = 400;
// pg_advisory_xact_lock keys of page indexing: this base ("ragp") plus the page id.
constexpr std::int64_t kPageLockBase = std::int64_t{0x72616770} << 32;

// PostgreSQL text holds no NUL, and jsonb refuses \u0000.
std::string withoutNul(std::string text) {
  std::erase(text, '\0');
  return text;
}

nlohmann::json rowOf(const Chunk& chunk) {
  std::string names = nameWords(chunk.kind == "code" ? chunk.symbol : chunk.title);
  // A: the symbol's own name; its class goes to B with the path, so a method does not
  // carry every word of its class at the top weight (rag-quality.md).
  std::string ownName =
      chunk.symbol.substr(chunk.symbol.rfind('.') == std::string::npos ? 0 : chunk.symbol.rfind('.') + 1);
  std::string scope =
      ownName.size() < chunk.symbol.size() ? chunk.symbol.substr(0, chunk.symbol.size() - ownName.size() - 1) : "";
  std::string strong = chunk.kind == "code" ? ownName : chunk.title;
  // The doc comment weighs as much as the path: in C++, JS and TS it sits above the
  // definition, outside the chunk's lines (docs/rag-quality.md measured the gain).
  // A guide's section: its headings at A, its path at B.
  std::string middle =
      chunk.kind == "code" ? chunk.path + "\n" + scope + "\n" + chunk.title + "\n" + chunk.doc : chunk.path;
  return {{"kind", chunk.kind},
          {"path", withoutNul(chunk.path)},
          {"start_line", chunk.startLine},
          {"end_line", chunk.endLine},
          {"symbol", withoutNul(chunk.symbol)},
          {"symbol_kind", chunk.symbolKind},
          {"language", chunk.language},
          {"page_id", chunk.pageId},
          {"title", withoutNul(chunk.title)},
          {"content", withoutNul(chunk.content)},
          {"names", withoutNul(names)},
          {"role", chunk.role},
          {"lang", chunk.textLanguage},
          {"api", chunk.api},
          {"doc", withoutNul(chunk.doc.substr(0, 2000))},
          {"a", withoutNul(searchableText(strong))},
          {"b", withoutNul(searchableText(middle))},
          {"c", withoutNul(searchableText(chunk.content))}};
}

}  // namespace

void insertChunks(Tx& tx, std::int64_t projectId, const std::vector<Chunk>& chunks) {
  for (std::size_t start = 0; start < chunks.size(); start += kBatch) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t i = start; i < chunks.size() && i < start + kBatch; ++i) rows.push_back(rowOf(chunks[i]));
    // Invalid UTF-8 in a source file becomes U+FFFD rather than failing the file.
    std::string payload = rows.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    tx.exec(
        "INSERT INTO rag_chunks (project_id, kind, path, start_line, end_line, symbol, symbol_kind, language,"
        " page_id, title, content, names, role, api, doc, lang, search)"
        " SELECT $1, r.kind, r.path, r.start_line, r.end_line, r.symbol, r.symbol_kind, r.language,"
        " nullif(r.page_id, 0), r.title, r.content, r.names, r.role, r.api, r.doc, r.lang,"
        " setweight(to_tsvector(r.lang::regconfig, r.a), 'A') || setweight(to_tsvector(r.lang::regconfig, r.b), 'B')"
        " || to_tsvector(r.lang::regconfig, r.c)"
        " FROM jsonb_to_recordset($2::jsonb) AS r(kind text, path text, start_line integer, end_line integer,"
        " symbol text, symbol_kind text, language text, page_id bigint, title text, content text, names text,"
        " role text, api boolean, doc text, lang text,"
        " a text, b text, c text)",
        {projectId, payload});
  }
}

std::map<std::string, std::string> fileDigests(Db& db, std::int64_t projectId) {
  std::map<std::string, std::string> digests;
  for (auto row : db.exec("SELECT path, digest FROM rag_files WHERE project_id = $1", {projectId}))
    digests[row.text("path")] = row.text("digest");
  return digests;
}

void replaceFile(Tx& tx, std::int64_t projectId, const std::string& path, const std::string& digest,
                 const std::vector<Chunk>& chunks) {
  removeFile(tx, projectId, path);
  insertChunks(tx, projectId, chunks);
  tx.exec("INSERT INTO rag_files (project_id, path, digest) VALUES ($1, $2, $3)",
          {projectId, withoutNul(path), digest});
}

void removeFile(Tx& tx, std::int64_t projectId, const std::string& path) {
  // Code chunks and a document's sections (page sections have no path).
  tx.exec("DELETE FROM rag_chunks WHERE project_id = $1 AND kind IN ('code', 'docs') AND path = $2",
          {projectId, withoutNul(path)});
  tx.exec("DELETE FROM rag_files WHERE project_id = $1 AND path = $2", {projectId, withoutNul(path)});
}

IndexedPage indexedPage(Db& db, std::int64_t pageId) {
  auto rows = db.exec("SELECT digest, checked_updated_at FROM rag_pages WHERE page_id = $1", {pageId});
  if (rows.empty()) return {};
  return {rows[0].text("digest"), rows[0].text("checked_updated_at")};
}

void replacePage(Tx& tx, std::int64_t projectId, std::int64_t pageId, const std::string& digest,
                 const std::string& updatedAt, const std::vector<Chunk>& chunks) {
  // Read committed: the DELETE after the lock sees the sections the previous holder wrote.
  tx.exec("SELECT pg_advisory_xact_lock($1)", {kPageLockBase + pageId});
  tx.exec("DELETE FROM rag_chunks WHERE kind = 'docs' AND page_id = $1 AND path = ''", {pageId});
  insertChunks(tx, projectId, chunks);
  tx.exec(
      "INSERT INTO rag_pages (page_id, project_id, digest, checked_updated_at) VALUES ($1, $2, $3, $4)"
      " ON CONFLICT (page_id) DO UPDATE SET digest = EXCLUDED.digest, checked_updated_at = EXCLUDED.checked_updated_at",
      {pageId, projectId, digest, updatedAt});
}

void markPageChecked(Db& db, std::int64_t projectId, std::int64_t pageId, const std::string& updatedAt) {
  db.exec(
      "INSERT INTO rag_pages (page_id, project_id, digest, checked_updated_at) VALUES ($1, $2, '', $3)"
      " ON CONFLICT (page_id) DO UPDATE SET checked_updated_at = EXCLUDED.checked_updated_at",
      {pageId, projectId, updatedAt});
}

std::map<std::int64_t, std::string> checkedPages(Db& db, std::int64_t projectId) {
  std::map<std::int64_t, std::string> pages;
  for (auto row : db.exec("SELECT page_id, checked_updated_at FROM rag_pages WHERE project_id = $1", {projectId}))
    pages[row.int64("page_id")] = row.text("checked_updated_at");
  return pages;
}

void removePages(Db& db, const std::vector<std::int64_t>& pageIds) {
  if (pageIds.empty()) return;
  std::string array = "{";
  for (std::size_t i = 0; i < pageIds.size(); ++i) array += (i ? "," : "") + std::to_string(pageIds[i]);
  array += "}";
  db.transaction([&](Tx& tx) {
    tx.exec("DELETE FROM rag_chunks WHERE kind = 'docs' AND page_id = ANY($1::bigint[]) AND path = ''", {array});
    // A guide's sections stay (they come from its file) but no longer link the page.
    tx.exec("UPDATE rag_chunks SET page_id = NULL WHERE kind = 'docs' AND page_id = ANY($1::bigint[])", {array});
    tx.exec("DELETE FROM rag_pages WHERE page_id = ANY($1::bigint[])", {array});
  });
}

void removeProject(Db& db, std::int64_t projectId) {
  db.transaction([&](Tx& tx) {
    tx.exec("DELETE FROM rag_chunks WHERE project_id = $1", {projectId});
    tx.exec("DELETE FROM rag_files WHERE project_id = $1", {projectId});
    tx.exec("DELETE FROM rag_pages WHERE project_id = $1", {projectId});
  });
}

void dropPageSections(Db& db, std::int64_t pageId) {
  db.transaction([&](Tx& tx) {
    tx.exec("DELETE FROM rag_chunks WHERE kind = 'docs' AND page_id = $1 AND path = ''", {pageId});
    tx.exec("DELETE FROM rag_pages WHERE page_id = $1", {pageId});
  });
}

bool pageHasSource(Db& db, std::int64_t pageId) {
  return !db.exec("SELECT 1 FROM rag_chunks WHERE kind = 'docs' AND page_id = $1 AND path <> '' LIMIT 1", {pageId})
              .empty();
}

std::string fileRoleOfPage(Db& db, std::int64_t projectId, std::int64_t pageId) {
  auto rows = db.exec("SELECT role FROM rag_chunks WHERE project_id = $1 AND kind = 'code' AND page_id = $2 LIMIT 1",
                      {projectId, pageId});
  return rows.empty() ? std::string() : rows[0].text("role");
}

bool hasChunks(Db& db, std::int64_t projectId) {
  return !db.exec("SELECT 1 FROM rag_chunks WHERE project_id = $1 LIMIT 1", {projectId}).empty();
}

std::vector<std::int64_t> indexedProjects(Db& db) {
  std::vector<std::int64_t> ids;
  for (auto row : db.exec("SELECT project_id FROM rag_files UNION SELECT project_id FROM rag_pages ORDER BY 1"))
    ids.push_back(row.int64(0));
  return ids;
}

std::string digestOf(const std::string& text) { return docs::codec::sha256Hex(text); }

}  // namespace docs_rag
