#include "mentions.hpp"

#include <algorithm>

#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/jobs.hpp>

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
  text += mention.body + "\n\n";
  text += "Open the thread: " + mention.origin + "/projects/" + std::to_string(mention.projectId) + "/" +
          std::to_string(mention.pageId) + "?thread=" + std::to_string(mention.threadId) + "\n";
  return text;
}

int queueMentionMails(docs::Context& context, docs::Tx& tx, const Mention& mention, std::int64_t intervalSeconds) {
  auto emails = mentionedEmails(mention.body);
  std::erase(emails, mention.authorEmail);
  if (emails.empty()) return 0;
  // Members only. The AccessControl service answers for a signed-in caller, not for an
  // address, so the grants (rbac's table, emails stored lower-case) are read here.
  auto members = tx.exec(
      "SELECT DISTINCT user_email FROM rbac_grants WHERE project_id = $1 AND user_email = ANY($2::text[])"
      " ORDER BY user_email",
      {mention.projectId, textArray(emails)});
  int queued = 0;
  for (auto row : members) {
    const std::string& email = row.text("user_email");
    if (!claimMentionMail(tx, mention.threadId, email, intervalSeconds)) continue;
    context.jobs().enqueue(
        tx, docs::JobSpec("auth.send_mail",
                          {{"to", email}, {"subject", mentionSubject(mention)}, {"text", mentionText(mention)}}));
    ++queued;
  }
  return queued;
}

}  // namespace docs_comments
