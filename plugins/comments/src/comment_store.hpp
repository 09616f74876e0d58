#pragma once
// The comment_threads, comments, comment_mention_mails and comment_mention_sends tables.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <docs/db.hpp>

namespace docs_comments {

struct Author {
  std::int64_t id = 0;
  std::string name;
};

struct Comment {
  std::int64_t id = 0;
  std::int64_t threadId = 0;
  Author author;
  std::string body;
  std::string createdAt;  // ISO 8601 UTC
  std::optional<std::string> editedAt;
};

struct Thread {
  std::int64_t id = 0;
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;
  Author author;
  std::string quote;
  std::optional<std::string> resolvedAt;
  std::optional<Author> resolvedBy;
  std::string createdAt;
  std::vector<Comment> comments;  // oldest first
};

// A comment with where it belongs, for authorization.
struct CommentRef {
  std::int64_t id = 0;
  std::int64_t threadId = 0;
  std::int64_t authorId = 0;
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;
};

// Every thread of a page with its comments, oldest first (two queries).
std::vector<Thread> listThreads(docs::Db& db, std::int64_t pageId);
std::optional<Thread> findThread(docs::Db& db, std::int64_t threadId);
// The thread's page, for a reply (nullopt: no such thread).
std::optional<std::int64_t> threadPage(docs::Tx& tx, std::int64_t threadId);
std::optional<CommentRef> findComment(docs::Db& db, std::int64_t commentId);

std::int64_t insertThread(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId, const Author& author,
                          const std::string& quote);
std::int64_t insertComment(docs::Tx& tx, std::int64_t threadId, const Author& author, const std::string& body);
bool updateBody(docs::Tx& tx, std::int64_t commentId, const std::string& body);
// Resolves (by someone) or reopens (nullopt) a thread.
void setResolved(docs::Tx& tx, std::int64_t threadId, const std::optional<Author>& by);
// Deletes a comment, and its thread when no comment is left; true when the thread went.
bool deleteComment(docs::Tx& tx, std::int64_t commentId, std::int64_t threadId);

void deletePages(docs::Db& db, const std::vector<std::int64_t>& pageIds);
void deleteProject(docs::Db& db, std::int64_t projectId);

// Records a mention mail to `email` about the thread unless one went in the last
// `windowSeconds`; true when this call may send.
bool claimMentionMail(docs::Tx& tx, std::int64_t threadId, const std::string& email, std::int64_t windowSeconds);
// How many more mention mails the author may cause today (of `perDay` in 24 hours). Takes
// a transaction-scoped lock on the author, so two comments at once cannot both spend the
// last one; forgets the author's sends older than a day.
std::int64_t remainingMentionMails(docs::Tx& tx, std::int64_t authorId, std::int64_t perDay);
void recordMentionMail(docs::Tx& tx, std::int64_t authorId);

}  // namespace docs_comments
