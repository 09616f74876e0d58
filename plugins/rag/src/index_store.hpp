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

namespace docs::rag {

// Inserts chunks of one project (computing their search vectors in PostgreSQL).
void insertChunks(Tx& tx, std::int64_t projectId, const std::vector<Chunk>& chunks);

std::map<std::string, std::string> fileDigests(Db& db, std::int64_t projectId);
void replaceFile(Tx& tx, std::int64_t projectId, const std::string& path, const std::string& digest,
                 const std::vector<Chunk>& chunks);
void removeFile(Tx& tx, std::int64_t projectId, const std::string& path);

std::string pageDigest(Db& db, std::int64_t pageId);
void replacePage(Tx& tx, std::int64_t projectId, std::int64_t pageId, const std::string& digest,
                 const std::vector<Chunk>& chunks);
// Drops the pages' sections; a guide file's sections stay, without the page.
void removePages(Db& db, const std::vector<std::int64_t>& pageIds);
// True when the page is a guide whose source file is indexed (its sections come from
// the file, with its path and lines, and the page's own text is not indexed again).
bool pageHasSource(Db& db, std::int64_t pageId);
// Drops a page's own sections (a guide's sections from its file stay linked to it).
void dropPageSections(Db& db, std::int64_t pageId);
// The role of the code file whose page this is ("" for other pages).
std::string fileRoleOfPage(Db& db, std::int64_t projectId, std::int64_t pageId);
void removeProject(Db& db, std::int64_t projectId);
bool hasChunks(Db& db, std::int64_t projectId);
// The projects that have an index (files or pages).
std::vector<std::int64_t> indexedProjects(Db& db);

// "sha256 hex" of text.
std::string digestOf(const std::string& text);

}  // namespace docs::rag
