#pragma once
// Mail for the project members a comment mentions (@alice@example.com): queued as the
// auth plugin's `auth.send_mail` job inside the comment's transaction (the sign-in codes'
// mail path: SMTP, or the outbox without it), with a link to the thread when
// server.public_url is set (never one built from the request's Host). Only members with an
// account that has claimed its grant are mailed: a pending invitation to an outside
// address is not a mailbox a comment can write to. Limits: the first
// `comments.mentions_per_comment` (10) addresses of a comment, at most one mail per thread
// and person per `comments.mention_mail_interval_seconds` (600), at most
// `comments.mention_mails_per_day` (100) mails caused by one author in 24 hours; the
// author gets none.

#include <cstddef>
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
  std::int64_t authorId = 0;
  std::string authorName;
  std::string authorEmail;
  std::string quote;
  std::string body;
  std::string origin;  // server.public_url (https://docs.example.com); empty: no link
};

struct MentionLimits {
  std::int64_t intervalSeconds = 600;  // per thread and person
  std::size_t perComment = 10;         // addresses of one comment that may be mailed
  std::int64_t perAuthorPerDay = 100;  // mails one author may cause in 24 hours
};

// Returns how many mails were queued. The mail goes through the auth plugin: call it only
// while auth is loaded (the caller checks its Authenticator).
int queueMentionMails(docs::Context& context, docs::Tx& tx, const Mention& mention, const MentionLimits& limits);

// The mail's subject and text (no line breaks in the subject).
std::string mentionSubject(const Mention& mention);
std::string mentionText(const Mention& mention);

}  // namespace docs_comments
