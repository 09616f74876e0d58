#pragma once
// Mail for the project members a comment mentions (@alice@example.com): queued as the
// auth plugin's `auth.send_mail` job inside the comment's transaction (the sign-in codes'
// mail path: SMTP, or the outbox without it), with a link to the thread. At most one mail
// per thread and person per `comments.mention_mail_interval_seconds` (600); people who
// hold no role in the project, and the author, get none.

#include <cstdint>
#include <string>

namespace docs {
class Context;
class Tx;
}  // namespace docs

namespace docs_comments {

struct Mention {
  std::int64_t projectId = 0;
  std::int64_t pageId = 0;
  std::int64_t threadId = 0;
  std::string pageName;
  std::string authorName;
  std::string authorEmail;
  std::string quote;
  std::string body;
  std::string origin;  // https://docs.example.com: where the thread link points
};

// Returns how many mails were queued. The mail goes through the auth plugin: call it only
// while auth is loaded (the caller checks its Authenticator).
int queueMentionMails(docs::Context& context, docs::Tx& tx, const Mention& mention, std::int64_t intervalSeconds);

// The mail's subject and text (no line breaks in the subject).
std::string mentionSubject(const Mention& mention);
std::string mentionText(const Mention& mention);

}  // namespace docs_comments
