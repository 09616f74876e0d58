#include "comment_store.hpp"

#include <algorithm>
#include <map>

#include <docs/support/body_fields.hpp>

namespace docs_comments {

using docs::support::isoTimestamp;

namespace {

constexpr const char* kThreadColumns =
    "id, project_id, page_id, author_id, author_name, quote, resolved_by, resolved_by_name,"
    " resolved_at AT TIME ZONE 'UTC' AS resolved_at, created_at AT TIME ZONE 'UTC' AS created_at";
constexpr const char* kCommentColumns =
    "c.id, c.thread_id, c.author_id, c.author_name, c.body, c.created_at AT TIME ZONE 'UTC' AS created_at,"
    " c.edited_at AT TIME ZONE 'UTC' AS edited_at";

Thread threadFrom(const docs::Row& row) {
  Thread thread;
  thread.id = row.int64("id");
  thread.projectId = row.int64("project_id");
  thread.pageId = row.int64("page_id");
  thread.author = {row.int64("author_id"), row.text("author_name")};
  thread.quote = row.text("quote");
  if (!row.isNull("resolved_at")) {
    thread.resolvedAt = isoTimestamp(row.text("resolved_at"));
    thread.resolvedBy =
        Author{row.isNull("resolved_by") ? 0 : row.int64("resolved_by"), row.optText("resolved_by_name").value_or("")};
  }
  thread.createdAt = isoTimestamp(row.text("created_at"));
  return thread;
}

Comment commentFrom(const docs::Row& row) {
  Comment comment;
  comment.id = row.int64("id");
  comment.threadId = row.int64("thread_id");
  comment.author = {row.int64("author_id"), row.text("author_name")};
  comment.body = row.text("body");
  comment.createdAt = isoTimestamp(row.text("created_at"));
  if (!row.isNull("edited_at")) comment.editedAt = isoTimestamp(row.text("edited_at"));
  return comment;
}

// "{1,2,3}": an array parameter.
std::string idArray(const std::vector<std::int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "}";
}

}  // namespace

std::vector<Thread> listThreads(docs::Db& db, std::int64_t pageId) {
  auto threadRows = db.exec(
      std::string("SELECT ") + kThreadColumns + " FROM comment_threads WHERE page_id = $1 ORDER BY id", {pageId});
  std::vector<Thread> threads;
  std::map<std::int64_t, std::size_t> index;
  for (auto row : threadRows) {
    index[row.int64("id")] = threads.size();
    threads.push_back(threadFrom(row));
  }
  if (threads.empty()) return threads;
  auto commentRows = db.exec(std::string("SELECT ") + kCommentColumns +
                                 " FROM comments c JOIN comment_threads t ON t.id = c.thread_id"
                                 " WHERE t.page_id = $1 ORDER BY c.id",
                             {pageId});
  for (auto row : commentRows) {
    auto found = index.find(row.int64("thread_id"));
    if (found != index.end()) threads[found->second].comments.push_back(commentFrom(row));
  }
  return threads;
}

std::optional<Thread> findThread(docs::Db& db, std::int64_t threadId) {
  auto rows = db.exec(std::string("SELECT ") + kThreadColumns + " FROM comment_threads WHERE id = $1", {threadId});
  if (rows.empty()) return std::nullopt;
  Thread thread = threadFrom(rows[0]);
  for (auto row :
       db.exec(std::string("SELECT ") + kCommentColumns + " FROM comments c WHERE c.thread_id = $1 ORDER BY c.id",
               {threadId}))
    thread.comments.push_back(commentFrom(row));
  return thread;
}

std::optional<std::int64_t> threadPage(docs::Tx& tx, std::int64_t threadId) {
  // Locked, so a reply cannot land in a thread whose last comment is being deleted.
  auto rows = tx.exec("SELECT page_id FROM comment_threads WHERE id = $1 FOR UPDATE", {threadId});
  if (rows.empty()) return std::nullopt;
  return rows[0].int64("page_id");
}

std::optional<CommentRef> findComment(docs::Db& db, std::int64_t commentId) {
  auto rows = db.exec(
      "SELECT c.id, c.thread_id, c.author_id, t.project_id, t.page_id FROM comments c"
      " JOIN comment_threads t ON t.id = c.thread_id WHERE c.id = $1",
      {commentId});
  if (rows.empty()) return std::nullopt;
  auto row = rows[0];
  return CommentRef{row.int64("id"), row.int64("thread_id"), row.int64("author_id"), row.int64("project_id"),
                    row.int64("page_id")};
}

std::int64_t insertThread(docs::Tx& tx, std::int64_t projectId, std::int64_t pageId, const Author& author,
                          const std::string& quote) {
  auto rows = tx.exec(
      "INSERT INTO comment_threads (project_id, page_id, author_id, author_name, quote) VALUES ($1, $2, $3, $4, $5)"
      " RETURNING id",
      {projectId, pageId, author.id, author.name, quote});
  return rows[0].int64("id");
}

std::int64_t insertComment(docs::Tx& tx, std::int64_t threadId, const Author& author, const std::string& body) {
  auto rows =
      tx.exec("INSERT INTO comments (thread_id, author_id, author_name, body) VALUES ($1, $2, $3, $4) RETURNING id",
              {threadId, author.id, author.name, body});
  return rows[0].int64("id");
}

bool updateBody(docs::Tx& tx, std::int64_t commentId, const std::string& body) {
  return tx.exec("UPDATE comments SET body = $2, edited_at = now() WHERE id = $1", {commentId, body}).affectedRows() >
         0;
}

void setResolved(docs::Tx& tx, std::int64_t threadId, const std::optional<Author>& by) {
  if (by) {
    // Resolving a resolved thread keeps who resolved it first.
    tx.exec(
        "UPDATE comment_threads SET resolved_at = now(), resolved_by = $2, resolved_by_name = $3"
        " WHERE id = $1 AND resolved_at IS NULL",
        {threadId, by->id, by->name});
  } else {
    tx.exec("UPDATE comment_threads SET resolved_at = NULL, resolved_by = NULL, resolved_by_name = NULL WHERE id = $1",
            {threadId});
  }
}

bool deleteComment(docs::Tx& tx, std::int64_t commentId, std::int64_t threadId) {
  tx.exec("SELECT id FROM comment_threads WHERE id = $1 FOR UPDATE", {threadId});
  tx.exec("DELETE FROM comments WHERE id = $1", {commentId});
  auto gone = tx.exec(
      "DELETE FROM comment_threads t WHERE t.id = $1 AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.thread_id = "
      "t.id)",
      {threadId});
  return gone.affectedRows() > 0;
}

void deletePages(docs::Db& db, const std::vector<std::int64_t>& pageIds) {
  if (pageIds.empty()) return;
  db.exec("DELETE FROM comment_threads WHERE page_id = ANY($1::bigint[])", {idArray(pageIds)});
}

void deleteProject(docs::Db& db, std::int64_t projectId) {
  db.exec("DELETE FROM comment_threads WHERE project_id = $1", {projectId});
}

bool claimMentionMail(docs::Tx& tx, std::int64_t threadId, const std::string& email, std::int64_t windowSeconds) {
  auto rows = tx.exec(
      "INSERT INTO comment_mention_mails (thread_id, email) VALUES ($1, $2)"
      " ON CONFLICT (thread_id, email) DO UPDATE SET sent_at = now()"
      "   WHERE comment_mention_mails.sent_at <= now() - make_interval(secs => $3)"
      " RETURNING thread_id",
      {threadId, email, windowSeconds});
  return !rows.empty();
}

std::int64_t remainingMentionMails(docs::Tx& tx, std::int64_t authorId, std::int64_t perDay) {
  // The lock's key: this table's name hashed with the author, so no other lock collides.
  tx.exec("SELECT pg_advisory_xact_lock(hashtext('comment_mention_sends'), hashtext($1::text))", {authorId});
  tx.exec("DELETE FROM comment_mention_sends WHERE author_id = $1 AND sent_at < now() - interval '1 day'", {authorId});
  auto rows = tx.exec("SELECT count(*) AS n FROM comment_mention_sends WHERE author_id = $1", {authorId});
  return std::max<std::int64_t>(0, perDay - rows[0].int64("n"));
}

void recordMentionMail(docs::Tx& tx, std::int64_t authorId) {
  tx.exec("INSERT INTO comment_mention_sends (author_id) VALUES ($1)", {authorId});
}

}  // namespace docs_comments
