#pragma once
// SQL of a page's document: pages.content_bytea and page_log. A fold or a server-side
// edit of a page takes its advisory lock (lockDocument) for the rest of its transaction.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <docs/db.hpp>
#include <docs/services/documents.hpp>

namespace docs_pages {

// One fold or apply of a page at a time, across nodes, until tx ends.
void lockDocument(docs::Tx& tx, std::int64_t pageId);

// The page's stored content: nullopt when the page does not exist, "" when never written.
std::optional<std::string> storedContent(docs::Db& db, std::int64_t pageId);
std::optional<std::string> storedContent(docs::Tx& tx, std::int64_t pageId);
// Writes the content; false when the page does not exist.
bool writeContent(docs::Tx& tx, std::int64_t pageId, std::string_view bytes);

// Every logged update of the page, oldest first (a packed row gives one per update).
std::vector<docs::LoggedUpdate> logOf(docs::Tx& tx, std::int64_t pageId);
std::vector<docs::LoggedUpdate> logOfNode(docs::Db& db, std::int64_t pageId, std::string_view node, std::int64_t fromId,
                                          std::int64_t toId);
// Rows other nodes logged up to an id.
std::vector<docs::LoggedUpdate> logOfOthers(docs::Tx& tx, std::int64_t pageId, std::string_view node,
                                            std::int64_t upToId);
// Inserts rows in one statement; ids in the same order.
std::vector<std::int64_t> appendLog(docs::Db& db, std::string_view node, const std::vector<docs::LogRow>& rows);
// Deletes `node`'s rows up to an id and the other rows named; returns what they were.
docs::FoldedRows deleteFolded(docs::Tx& tx, std::int64_t pageId, std::string_view node, std::int64_t upToId,
                              const std::vector<std::int64_t>& othersFolded);
void deleteLog(docs::Tx& tx, std::int64_t pageId);
void deleteLogOfPages(docs::Tx& tx, const std::vector<std::int64_t>& pageIds);
std::vector<std::int64_t> pagesWithLog(docs::Db& db, int limit);

// A packed row's bytes: each update as a lib0 byte array, one after the other.
std::string packUpdates(const std::vector<std::string_view>& updates);
// Throws std::runtime_error if the bytes do not hold exactly `count` updates.
std::vector<std::string> unpackUpdates(std::string_view packed, std::int64_t count);

}  // namespace docs_pages
