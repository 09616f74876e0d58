#include "mentions.hpp"

#include <algorithm>

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/jobs.hpp>
#include <docs/logger.hpp>

#include "comment_body.hpp"
#include "comment_store.hpp"

namespace docs_comments {

namespace {

// One line of plain text: control characters (line breaks too) become spaces.
std::string oneLine(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }, ' ');
  return text;
}

std::string textArray(const std::vector<std::string>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += i ? ",\"" : "\"";
    for (char c : values[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace

std::string mentionSubject(const Mention& mention) {
  return oneLine(mention.authorName + " mentioned you on \"" + mention.pageName + "\"");
}

std::string mentionText(const Mention& mention) {
  std::string text = mention.authorName + " mentioned you in a comment on \"" + mention.pageName + "\":\n\n";
  if (!mention.quote.empty()) text += "> " + mention.quote + "\n\n";
  text += mention.body + "\n";
  if (!mention.origin.empty())
    text += "\nOpen the thread: " + mention.origin + "/projects/" + std::to_string(mention.projectId) + "/" +
            std::to_string(mention.pageId) + "?thread=" + std::to_string(mention.threadId) + "\n";
  return text;
}

int queueMentionMails(docs::Context& context, docs::Tx& tx, const Mention& mention, const MentionLimits& limits) {
  auto emails = mentionedEmails(mention.body);
  std::erase(emails, mention.authorEmail);
  if (emails.size() > limits.perComment) emails.resize(limits.perComment);
  if (emails.empty()) return 0;
  // Members with an account only (user_id is set once the account claimed the grant). The
  // AccessControl service answers for a signed-in caller, not for an address, so the grants
  // (rbac's table, emails stored lower-case) are read here.
  auto members = tx.exec(
      "SELECT DISTINCT user_email FROM rbac_grants WHERE project_id = $1 AND user_id IS NOT NULL"
      " AND user_email = ANY($2::text[]) ORDER BY user_email",
      {mention.projectId, textArray(emails)});
  if (members.empty()) return 0;
  std::int64_t allowance = remainingMentionMails(tx, mention.authorId, limits.perAuthorPerDay);
  int queued = 0;
  for (auto row : members) {
    if (queued >= allowance) {
      context.logger().warn("mention mails: the author's daily limit is reached; no more mail for this comment",
                            {{"author_id", mention.authorId}, {"limit", limits.perAuthorPerDay}});
      break;
    }
    const std::string& email = row.text("user_email");
    if (!claimMentionMail(tx, mention.threadId, email, limits.intervalSeconds)) continue;
    recordMentionMail(tx, mention.authorId);
    context.jobs().enqueue(
        tx, docs::JobSpec("auth.send_mail",
                          {{"to", email}, {"subject", mentionSubject(mention)}, {"text", mentionText(mention)}}));
    ++queued;
  }
  return queued;
}

}  // namespace docs_comments
