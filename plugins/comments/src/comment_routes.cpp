#include "comment_routes.hpp"

#include <algorithm>
#include <charconv>
#include <memory>

#include <docs/config.hpp>
#include <docs/context.hpp>
#include <docs/db.hpp>
#include <docs/events.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/authenticator.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/pages.hpp>
#include <docs/support/body_fields.hpp>
#include <docs/topics.hpp>

#include "anchors.hpp"
#include "comment_body.hpp"
#include "comment_docs.hpp"
#include "comment_json.hpp"
#include "comment_store.hpp"
#include "mentions.hpp"
#include "write_limiter.hpp"

namespace docs_comments {

using namespace docs::support;

namespace {

using docs::HttpError;
using docs::Json;
using docs::Role;

// Room for a 10,000-character body however it is escaped; longer text is a 400 that
// says so, a larger request a 413.
constexpr std::size_t kBodyLimit = 256 * 1024;

struct PageRef {
  std::int64_t id = 0;
  std::int64_t projectId = 0;
  Role role = Role::None;  // the caller's effective role in the project
  std::string name;
};

std::string lowerCase(std::string text) {
  for (auto& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

Author authorOf(const docs::Principal& principal) {
  Author author;
  std::from_chars(principal.userId.data(), principal.userId.data() + principal.userId.size(), author.id);
  author.name = principal.name;
  if (author.name.empty()) author.name = principal.email.substr(0, principal.email.find('@'));
  return author;
}

class CommentRoutes {
 public:
  // Built in configure(), after the config keys are declared. Requires AccessControl and
  // Pages and Documents (comments depends on rbac and pages); uses Authenticator (whether
  // auth, and so mail, is there).
  explicit CommentRoutes(docs::Registry& registry)
      : context_(registry.context()),
        limiter_(static_cast<double>(context_.config().getInt("comments.writes_per_minute"))),
        mentionLimits_{context_.config().getInt("comments.mention_mail_interval_seconds"),
                       static_cast<std::size_t>(
                           std::max<std::int64_t>(0, context_.config().getInt("comments.mentions_per_comment"))),
                       context_.config().getInt("comments.mention_mails_per_day")},
        publicUrl_(context_.config().getString("server.public_url")) {
    while (publicUrl_.ends_with('/')) publicUrl_.pop_back();
    registry.require(access_);
    registry.require(pages_);
    registry.require(documents_);
    registry.use(authenticator_);
  }

  // The caller's role, or the access error; a project the caller may not read answers
  // exactly as a missing object would.
  Role requireRole(std::int64_t projectId, const docs::Request& request, Role needed, const char* notFound) {
    try {
      return access_->require(projectId, request.principal(), needed);
    } catch (const HttpError& error) {
      if (error.status() == 404) throw HttpError::notFound(notFound);
      throw;
    }
  }

  // The page, once the caller is known to have `needed` in its project; a page the caller
  // may not read is a 404 like a missing one.
  PageRef pageFor(const docs::Request& request, Role needed) {
    auto page = pages_->find(request.idParam("id"));
    if (!page) throw HttpError::notFound("Page not found");
    Role role = requireRole(page->projectId, request, needed, "Page not found");
    return {page->id, page->projectId, role, page->name};
  }

  // The comment, once the caller may write in its project.
  CommentRef commentFor(const docs::Request& request) {
    auto comment = findComment(context_.db(), request.idParam("id"));
    if (!comment) throw HttpError::notFound("Comment not found");
    requireRole(comment->projectId, request, Role::Write, "Comment not found");
    return *comment;
  }

  void limitWrites(const docs::Request& request, docs::Response& response) {
    if (int wait = limiter_.take(request.requirePrincipal().userId)) {
      response.setHeader("Retry-After", std::to_string(wait));
      throw HttpError(429, "rate_limited", "Too many comments; try again in " + std::to_string(wait) + " s");
    }
  }

  // The page's document with every accepted edit (as the pages plugin exports it).
  std::optional<std::string> currentContent(std::int64_t pageId) {
    auto content = documents_->read(pageId);
    if (!content || content->empty()) return std::nullopt;
    return content;
  }

  Json threadOut(std::int64_t threadId, std::int64_t pageId) {
    auto thread = findThread(context_.db(), threadId);
    if (!thread) throw HttpError::notFound("Thread not found");
    return threadJson(*thread, markedThreadsOfUpdate(currentContent(pageId)));
  }

  // Mails the members the text mentions (inside the comment's transaction).
  void mention(docs::Tx& tx, const docs::Request& request, const PageRef& page, std::int64_t threadId,
               const std::string& quote, const std::string& text) {
    if (!authenticator_) return;  // mail goes through the auth plugin; without it there is no mail path
    const auto& caller = request.requirePrincipal();
    Author author = authorOf(caller);
    // The link only under server.public_url: the request's Host is the caller's to choose.
    Mention m{page.projectId,          page.id, threadId, page.name, author.id, author.name,
              lowerCase(caller.email), quote,   text,     publicUrl_};
    queueMentionMails(context_, tx, m, mentionLimits_);
  }

  void changed(docs::Tx& tx, const PageRef& page, std::int64_t threadId, const char* change) {
    docs::publishAfterCommit(context_.events(), tx, docs::kCommentChanged, {page.projectId, page.id, threadId, change});
  }

  void list(docs::Request& request, docs::Response& response) {
    auto page = pageFor(request, Role::Read);
    auto anchored = markedThreadsOfUpdate(currentContent(page.id));
    Json threads = Json::array();
    for (const auto& thread : listThreads(context_.db(), page.id)) threads.push_back(threadJson(thread, anchored));
    response.json({{"threads", threads}, {"can_comment", page.role >= Role::Write}});
  }

  void create(docs::Request& request, docs::Response& response) {
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"body", "thread_id", "quote"});
    std::string text = validBody(requiredString(body, "body"));
    std::optional<std::int64_t> threadId;
    if (body.contains("thread_id") && !body["thread_id"].is_null()) threadId = requiredId(body, "thread_id");
    auto rawQuote = optionalString(body, "quote");
    if (threadId && rawQuote) throw HttpError::badRequest("'quote' belongs to a new thread only", "invalid_field");
    std::string quote = validQuote(rawQuote.value_or(""));
    auto page = pageFor(request, Role::Write);
    limitWrites(request, response);
    Author author = authorOf(request.requirePrincipal());
    std::int64_t commentId = 0, thread = 0;
    context_.db().transaction([&](docs::Tx& tx) {
      if (threadId) {
        auto pageOfThread = threadPage(tx, *threadId);
        if (!pageOfThread || *pageOfThread != page.id) throw HttpError::notFound("Thread not found");
        thread = *threadId;
      } else {
        thread = insertThread(tx, page.projectId, page.id, author, quote);
      }
      commentId = insertComment(tx, thread, author, text);
      mention(tx, request, page, thread, threadId ? std::string() : quote, text);
      changed(tx, page, thread, threadId ? "replied" : "created");
    });
    Json out = threadOut(thread, page.id);
    Json comment;
    for (const auto& c : out["comments"])
      if (c["id"] == commentId) comment = c;
    response.json({{"thread", out}, {"comment", comment}}, 201);
  }

  void update(docs::Request& request, docs::Response& response) {
    Json body = request.jsonObject();
    rejectUnknownFields(body, {"body", "resolved"});
    auto rawText = optionalString(body, "body");
    auto resolved = optionalBool(body, "resolved");
    if (!rawText && !resolved) throw HttpError::badRequest("Send body or resolved", "invalid_field");
    std::optional<std::string> text;
    if (rawText) text = validBody(*rawText);
    auto comment = commentFor(request);
    Author me = authorOf(request.requirePrincipal());
    if (text && comment.authorId != me.id) throw HttpError::forbidden("Only its author can edit a comment");
    limitWrites(request, response);
    auto found = pages_->find(comment.pageId);
    PageRef page{comment.pageId, comment.projectId, Role::Write, found ? found->name : std::string()};
    context_.db().transaction([&](docs::Tx& tx) {
      if (text) updateBody(tx, comment.id, *text);
      if (text) mention(tx, request, page, comment.threadId, std::string(), *text);
      if (resolved) setResolved(tx, comment.threadId, *resolved ? std::optional<Author>(me) : std::nullopt);
      changed(tx, page, comment.threadId, resolved ? (*resolved ? "resolved" : "reopened") : "edited");
    });
    Json out = threadOut(comment.threadId, comment.pageId);
    Json edited;
    for (const auto& c : out["comments"])
      if (c["id"] == comment.id) edited = c;
    response.json({{"thread", out}, {"comment", edited}});
  }

  void remove(docs::Request& request, docs::Response& response) {
    auto comment = commentFor(request);
    if (comment.authorId != authorOf(request.requirePrincipal()).id)
      throw HttpError::forbidden("Only its author can delete a comment");
    limitWrites(request, response);
    PageRef page{comment.pageId, comment.projectId, Role::Write, {}};
    bool threadGone = false;
    context_.db().transaction([&](docs::Tx& tx) {
      threadGone = deleteComment(tx, comment.id, comment.threadId);
      changed(tx, page, comment.threadId, threadGone ? "thread_deleted" : "deleted");
    });
    response.json(
        {{"id", comment.id}, {"deleted", true}, {"thread_id", comment.threadId}, {"thread_deleted", threadGone}});
  }

 private:
  docs::Context& context_;
  docs::ServiceRef<docs::AccessControl> access_;
  docs::ServiceRef<docs::Pages> pages_;
  docs::ServiceRef<docs::Documents> documents_;
  docs::ServiceRef<docs::Authenticator> authenticator_;
  WriteLimiter limiter_;
  MentionLimits mentionLimits_;
  std::string publicUrl_;
};

}  // namespace

void addCommentRoutes(docs::Registry& registry) {
  registry.configKey("comments.mention_mail_interval_seconds", "600",
                     "At most one mention mail per thread and person in this many seconds");
  registry.configKey("comments.mentions_per_comment", "10",
                     "Addresses of one comment that may be mailed (the first ones in the text)");
  registry.configKey("comments.mention_mails_per_day", "100",
                     "Mention mails one author may cause in 24 hours (across every project)");
  registry.configKey("comments.writes_per_minute", "30",
                     "Comments a user may write, edit, resolve or delete a minute on one node (0: no limit)");
  auto routes = std::make_shared<CommentRoutes>(registry);
  docs::RouteOptions small;
  small.maxBodyBytes = kBodyLimit;
  using docs::Method;
  using docs::Request;
  using docs::Response;
  registry.route(
      Method::Get, "/api/page/{id}/comments", [routes](Request& q, Response& r) { routes->list(q, r); }, {},
      listCommentsDoc());
  registry.route(
      Method::Post, "/api/page/{id}/comments", [routes](Request& q, Response& r) { routes->create(q, r); }, small,
      createCommentDoc());
  registry.route(
      Method::Patch, "/api/comment/{id}", [routes](Request& q, Response& r) { routes->update(q, r); }, small,
      updateCommentDoc());
  registry.route(
      Method::Delete, "/api/comment/{id}", [routes](Request& q, Response& r) { routes->remove(q, r); }, {},
      deleteCommentDoc());
}

}  // namespace docs_comments
