#pragma once
// The rag tables: writing chunk sets (one statement per batch) and their digests.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "chunker.hpp"

namespace docs {
class Db;
class Tx;
}  // namespace docs

namespace docs_rag {

// Inserts chunks of one project (computing their search vectors in PostgreSQL).
void insertChunks(docs::Tx& tx, std::int64_t projectId, const std::vector<Chunk>& chunks);

std::map<std::string, std::string> fileDigests(docs::Db& db, std::int64_t projectId);
void replaceFile(docs::Tx& tx, std::int64_t projectId, const std::string& path, const std::string& digest,
                 const std::vector<Chunk>& chunks);
void removeFile(docs::Tx& tx, std::int64_t projectId, const std::string& path);

// What a page's index was built from: the digest of its text ("" when its own text is not
// indexed) and the page's updated_at when it was last checked.
struct IndexedPage {
  std::string digest;
  std::string checkedUpdatedAt;
};
IndexedPage indexedPage(docs::Db& db, std::int64_t pageId);
// Replaces the page's sections. One page at a time (an advisory lock until tx ends): a
// project job and a page job indexing the same page do not leave both chunk sets.
void replacePage(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId, const std::string& digest,
                 const std::string& updatedAt, const std::vector<Chunk>& chunks);
// Records that the page was checked at its updated_at, keeping its digest.
void markPageChecked(docs::Db& db, std::int64_t projectId, std::int64_t pageId, const std::string& updatedAt);
// Every page of the project that has a row: page id -> updated_at when last checked.
std::map<std::int64_t, std::string> checkedPages(docs::Db& db, std::int64_t projectId);
// Drops the pages' sections; a guide file's sections stay, without the page.
void removePages(docs::Db& db, const std::vector<std::int64_t>& pageIds);
// True when the page is a guide whose source file is indexed (its sections come from
// the file, with its path and lines, and the page's own text is not indexed again).
bool pageHasSource(docs::Db& db, std::int64_t pageId);
// Drops a page's own sections (a guide's sections from its file stay linked to it).
void dropPageSections(docs::Db& db, std::int64_t pageId);
// The role of the code file whose page this is ("" for other pages).
std::string fileRoleOfPage(docs::Db& db, std::int64_t projectId, std::int64_t pageId);
void removeProject(docs::Db& db, std::int64_t projectId);
bool hasChunks(docs::Db& db, std::int64_t projectId);
// The projects that have an index (files or pages).
std::vector<std::int64_t> indexedProjects(docs::Db& db);

// "sha256 hex" of text.
std::string digestOf(const std::string& text);

}  // namespace docs_rag
