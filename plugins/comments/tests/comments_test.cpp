// The comment calls against a real docsd: every route for every role, threads whose
// marked text is deleted (detached), the abuse cases and the write limit.
#include <docs/ydoc/ydoc.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "rest_fixture.hpp"

using namespace docs::rest_test;

namespace {

std::string yjsDocument(const docs::ydoc::Json& pm) {
  auto bytes = docs::ydoc::proseMirrorJsonToUpdate(pm, 99);
  return base64(std::string(bytes.begin(), bytes.end()));
}

// An edit of the document `before` (base64) that makes it `pm`: what an editor sends
// (PUT content merges, so replacing text means deleting it on top of what is there).
std::string yjsEditOf(const std::string& before, const docs::ydoc::Json& pm) {
  auto bytes = docs::codec::base64Decode(before).value();
  docs::ydoc::Doc doc(98);
  doc.applyUpdate(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  auto stateVector = doc.encodeStateVector();
  docs::ydoc::applyProseMirrorJson(doc, pm);
  auto update = doc.encodeStateAsUpdate(stateVector);
  return base64(std::string(update.begin(), update.end()));
}

// A paragraph whose middle word is marked for `threadId` (0: no mark).
docs::ydoc::Json paragraphWithThread(std::int64_t threadId) {
  docs::ydoc::Json marked = {{"type", "text"}, {"text", "passage"}};
  if (threadId) marked["marks"] = {{{"type", "comment"}, {"attrs", {{"thread_id", threadId}}}}};
  return {{"type", "doc"},
          {"content",
           {{{"type", "paragraph"},
             {"content", {{{"type", "text"}, {"text", "The "}}, marked, {{"type", "text"}, {"text", " here."}}}}}}}};
}

class CommentThreads : public RestTest {
 protected:
  void SetUp() override { start(serverEnv()); }
  virtual std::map<std::string, std::string> serverEnv() { return {}; }
  void start(std::map<std::string, std::string> env) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth,rbac,projects,pages,comments");
    startServer(env);
    alice_ = signIn("alice@example.com");
    bob_ = signIn("bob@example.com");
    carol_ = signIn("carol@example.com");
    dave_ = signIn("dave@example.com");
    auto project = createProject(alice_, "Private", true);
    projectId_ = project["id"];
    page_ = project["default_page_id"];
    grant(alice_, projectId_, "bob@example.com", "write");
    grant(alice_, projectId_, "carol@example.com", "read");
  }
  static std::string comments(std::int64_t page) { return "/api/page/" + std::to_string(page) + "/comments"; }
  static std::string comment(std::int64_t id) { return "/api/comment/" + std::to_string(id); }
  HttpResponse post(const docs::test::SignedIn& who, const json& body, std::int64_t page = 0) {
    return call("POST", comments(page ? page : page_), body, as(who));
  }
  // A new thread by `who`; returns the answer's JSON.
  json newThread(const docs::test::SignedIn& who, const std::string& text = "Is this right?",
                 const std::string& quote = "passage") {
    auto r = post(who, json{{"body", text}, {"quote", quote}});
    EXPECT_EQ(r.status, 201) << r.body;
    return parse(r);
  }
  json threads(const docs::test::SignedIn& who) {
    auto r = call("GET", comments(page_), "", as(who));
    EXPECT_EQ(r.status, 200) << r.body;
    return parse(r)["threads"];
  }

  docs::test::SignedIn alice_, bob_, carol_, dave_;
  std::int64_t projectId_ = 0;
  std::int64_t page_ = 0;
};

TEST_F(CommentThreads, ThreadRepliesEditsResolutionAndDeletion) {
  auto created = newThread(bob_, "Is **this** right?");
  auto thread = created["thread"];
  std::int64_t threadId = thread["id"];
  EXPECT_EQ(thread["quote"], "passage");
  EXPECT_EQ(thread["page_id"], page_);
  EXPECT_EQ(thread["author"]["id"], bob_.userId);
  EXPECT_FALSE(thread["resolved"].get<bool>());
  ASSERT_EQ(thread["comments"].size(), 1u);
  EXPECT_EQ(created["comment"]["body"], "Is **this** right?");
  EXPECT_TRUE(created["comment"]["edited_at"].is_null());
  std::int64_t first = created["comment"]["id"];

  auto reply = post(alice_, json{{"body", "Yes."}, {"thread_id", threadId}});
  ASSERT_EQ(reply.status, 201) << reply.body;
  std::int64_t second = parse(reply)["comment"]["id"];
  EXPECT_EQ(parse(reply)["thread"]["comments"].size(), 2u);

  // Everyone who reads the project reads the comments, in order.
  for (const auto* who : {&alice_, &bob_, &carol_}) {
    auto list = threads(*who);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["comments"][0]["id"], first);
    EXPECT_EQ(list[0]["comments"][1]["id"], second);
  }
  EXPECT_TRUE(parse(call("GET", comments(page_), "", as(bob_)))["can_comment"].get<bool>());
  EXPECT_FALSE(parse(call("GET", comments(page_), "", as(carol_)))["can_comment"].get<bool>());

  // Edit own; not someone else's.
  auto edited = call("PATCH", comment(first), json{{"body", "Is this *really* right?"}}, as(bob_));
  ASSERT_EQ(edited.status, 200) << edited.body;
  EXPECT_EQ(parse(edited)["comment"]["body"], "Is this *really* right?");
  EXPECT_FALSE(parse(edited)["comment"]["edited_at"].is_null());
  expectError(call("PATCH", comment(first), json{{"body", "mine now"}}, as(alice_)), 403);
  expectError(call("PATCH", comment(second), json{{"body", "mine now"}}, as(bob_)), 403);

  // Any writer resolves and reopens.
  auto resolved = call("PATCH", comment(second), json{{"resolved", true}}, as(bob_));
  ASSERT_EQ(resolved.status, 200) << resolved.body;
  EXPECT_TRUE(parse(resolved)["thread"]["resolved"].get<bool>());
  EXPECT_EQ(parse(resolved)["thread"]["resolved_by"]["id"], bob_.userId);
  EXPECT_TRUE(threads(carol_)[0]["resolved"].get<bool>());
  // A reply to a resolved thread is allowed and leaves it resolved.
  ASSERT_EQ(post(alice_, json{{"body", "Noted"}, {"thread_id", threadId}}).status, 201);
  EXPECT_TRUE(threads(alice_)[0]["resolved"].get<bool>());
  auto reopened = call("PATCH", comment(first), json{{"resolved", false}}, as(alice_));
  ASSERT_EQ(reopened.status, 200) << reopened.body;
  EXPECT_FALSE(parse(reopened)["thread"]["resolved"].get<bool>());
  EXPECT_TRUE(parse(reopened)["thread"]["resolved_by"].is_null());

  // Delete own only; the thread goes with its last comment.
  expectError(call("DELETE", comment(first), "", as(alice_)), 403);
  auto gone = call("DELETE", comment(first), "", as(bob_));
  ASSERT_EQ(gone.status, 200) << gone.body;
  EXPECT_FALSE(parse(gone)["thread_deleted"].get<bool>());
  EXPECT_EQ(threads(alice_)[0]["comments"].size(), 2u);
  expectError(call("DELETE", comment(first), "", as(bob_)), 404);
  auto list = threads(alice_)[0]["comments"];
  ASSERT_EQ(call("DELETE", comment(list[0]["id"]), "", as(alice_)).status, 200);
  auto last = call("DELETE", comment(list[1]["id"]), "", as(alice_));
  ASSERT_EQ(last.status, 200) << last.body;
  EXPECT_TRUE(parse(last)["thread_deleted"].get<bool>());
  EXPECT_TRUE(threads(alice_).empty());
  expectError(post(alice_, json{{"body", "late"}, {"thread_id", threadId}}), 404, "Thread not found");
}

TEST_F(CommentThreads, StrangersReadersAndAnonymous) {
  auto created = newThread(bob_);
  std::int64_t threadId = created["thread"]["id"];
  std::int64_t commentId = created["comment"]["id"];
  // A stranger and an anonymous caller get what a missing page gets: 404.
  auto missing = call("GET", comments(page_ + 1000), "", as(alice_));
  expectError(missing, 404);
  expectError(call("PATCH", comment(commentId + 1000), json{{"body", "hi"}}, as(alice_)), 404, "Comment not found");
  for (const auto& headers : {as(dave_), Headers{}}) {
    auto r = call("GET", comments(page_), "", headers);
    expectError(r, 404);
    EXPECT_EQ(parse(r)["error"]["message"], parse(missing)["error"]["message"]);
    expectError(call("POST", comments(page_), json{{"body", "hi"}}, headers), 404);
    expectError(call("PATCH", comment(commentId), json{{"body", "hi"}}, headers), 404, "Comment not found");
    expectError(call("PATCH", comment(commentId), json{{"resolved", true}}, headers), 404);
    expectError(call("DELETE", comment(commentId), "", headers), 404);
  }
  // A reader reads but cannot comment, reply, resolve, edit or delete.
  expectError(post(carol_, json{{"body", "hi"}}), 403);
  expectError(post(carol_, json{{"body", "hi"}, {"thread_id", threadId}}), 403);
  expectError(call("PATCH", comment(commentId), json{{"resolved", true}}, as(carol_)), 403);
  expectError(call("PATCH", comment(commentId), json{{"body", "x"}}, as(carol_)), 403);
  expectError(call("DELETE", comment(commentId), "", as(carol_)), 403);
  // A removed member is a stranger from the next request on.
  ASSERT_EQ(
      call("DELETE", "/api/rbac/project", json{{"project_id", projectId_}, {"email", "bob@example.com"}}, as(alice_))
          .status,
      200);
  expectError(call("GET", comments(page_), "", as(bob_)), 404);
  expectError(call("PATCH", comment(commentId), json{{"body", "x"}}, as(bob_)), 404);
  EXPECT_EQ(threads(alice_).size(), 1u);
  expectError(call("GET", "/api/page/abc/comments", "", as(alice_)), 400);
  expectError(call("PATCH", "/api/comment/0", json{{"body", "x"}}, as(alice_)), 400);
}

TEST_F(CommentThreads, PublicProjectAnonymousReadsAndSignedInStrangerIsForbidden) {
  auto project = createProject(alice_, "Public", false);
  std::int64_t page = project["default_page_id"];
  auto created = post(alice_, json{{"body", "open"}}, page);
  ASSERT_EQ(created.status, 201) << created.body;
  auto anonymous = call("GET", comments(page), "", {});
  ASSERT_EQ(anonymous.status, 200) << anonymous.body;
  EXPECT_EQ(parse(anonymous)["threads"].size(), 1u);
  EXPECT_FALSE(parse(anonymous)["can_comment"].get<bool>());
  expectError(call("POST", comments(page), json{{"body", "hi"}}, {}), 401);
  expectError(post(dave_, json{{"body", "hi"}}, page), 403);
  std::int64_t commentId = parse(created)["comment"]["id"];
  expectError(call("PATCH", comment(commentId), json{{"resolved", true}}, as(dave_)), 403);
  expectError(call("DELETE", comment(commentId), "", {}), 401);
}

TEST_F(CommentThreads, BodiesAreCheckedAndKeptAsWritten) {
  expectError(post(bob_, json{{"body", std::string(10001, 'x')}}), 400, "A comment must be at most 10000 characters");
  ASSERT_EQ(post(bob_, json{{"body", std::string(10000, 'x')}}).status, 201);
  expectError(post(bob_, json{{"body", "   "}}), 400, "Write something first");
  expectError(post(bob_, json::object()), 400);
  expectError(post(bob_, json{{"body", 5}}), 400);
  expectError(post(bob_, json{{"body", "x"}, {"html", "<b>"}}), 400, "Unknown field 'html'");
  expectError(post(bob_, json{{"body", std::string("a\0b", 3)}}), 400);
  expectError(post(bob_, json{{"body", "x"}, {"quote", std::string(1001, 'q')}}), 400);
  expectError(post(bob_, json{{"body", "x"}, {"thread_id", "seven"}}), 400);
  expectError(call("POST", comments(page_), "{\"body\": ", as(bob_)), 400);
  expectError(call("POST", comments(page_), "[1]", as(bob_)), 400);
  expectError(call("POST", comments(page_), json{{"body", std::string(300 * 1024, 'x')}}, as(bob_)), 413);
  auto thread = newThread(bob_);
  std::int64_t threadId = thread["thread"]["id"];
  std::int64_t commentId = thread["comment"]["id"];
  expectError(post(bob_, json{{"body", "x"}, {"thread_id", threadId}, {"quote", "q"}}), 400);
  expectError(call("PATCH", comment(commentId), json::object(), as(bob_)), 400, "Send body or resolved");
  expectError(call("PATCH", comment(commentId), json{{"resolved", "yes"}}, as(bob_)), 400);
  expectError(call("PATCH", comment(commentId), json{{"body", std::string(10001, 'y')}}, as(bob_)), 400);
  // A reply into another page's thread is a missing thread.
  std::int64_t other = createPage(alice_, projectId_)["id"];
  expectError(post(bob_, json{{"body", "x"}, {"thread_id", threadId}}, other), 404, "Thread not found");
  // Markdown and HTML are stored as the source text: nothing is rendered on the server.
  std::string source = "[click](javascript:alert(1)) <img src=x onerror=alert(1)> **b**";
  auto stored = post(bob_, json{{"body", source}});
  ASSERT_EQ(stored.status, 201) << stored.body;
  EXPECT_EQ(parse(stored)["comment"]["body"], source);
  EXPECT_EQ(parse(call("GET", comments(page_), "", as(carol_)))["threads"].back()["comments"][0]["body"], source);
}

TEST_F(CommentThreads, ThreadsWhoseTextIsDeletedAreDetachedAndKeepTheirQuote) {
  auto created = newThread(bob_, "Typo?", "passage");
  std::int64_t threadId = created["thread"]["id"];
  std::string content = "/api/page/" + std::to_string(page_) + "/content";
  // Marked in the document: anchored.
  auto marked = yjsDocument(paragraphWithThread(threadId));
  ASSERT_EQ(call("PUT", content, json{{"content_bytea", marked}}, as(bob_)).status, 200);
  auto list = threads(carol_);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_FALSE(list[0]["detached"].get<bool>());
  // The exports drop the mark.
  auto markdown = call("GET", "/api/page/" + std::to_string(page_) + "/export?format=md", "", as(carol_));
  EXPECT_EQ(markdown.body, "The passage here.\n");
  auto html = call("GET", "/api/page/" + std::to_string(page_) + "/export?format=html", "", as(carol_));
  EXPECT_EQ(html.body.find("thread"), std::string::npos) << html.body;
  // The marked text deleted: detached, the quote kept.
  ASSERT_EQ(call("PUT", content, json{{"content_bytea", yjsEditOf(marked, paragraphWithThread(0))}}, as(bob_)).status,
            200);
  list = threads(carol_);
  EXPECT_TRUE(list[0]["detached"].get<bool>());
  EXPECT_EQ(list[0]["quote"], "passage");
  ASSERT_EQ(list[0]["comments"].size(), 1u);
}

TEST_F(CommentThreads, DeletedPagesTakeTheirThreads) {
  std::int64_t other = createPage(alice_, projectId_)["id"];
  ASSERT_EQ(post(bob_, json{{"body", "bye"}}, other).status, 201);
  ASSERT_EQ(call("DELETE", "/api/page/" + std::to_string(other), "", as(alice_)).status, 200);
  expectError(call("GET", comments(other), "", as(alice_)), 404);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (sql("SELECT count(*) FROM comment_threads WHERE page_id = " + std::to_string(other)) != "0" &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(sql("SELECT count(*) FROM comment_threads WHERE page_id = " + std::to_string(other)), "0");
}

// The mention mails in the docsd's outbox to `email`, oldest first.
std::vector<std::string> mentionMails(const std::string& dataDir, const std::string& email) {
  std::vector<std::pair<std::string, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dataDir + "/outbox", ec)) {
    if (entry.path().extension() != ".eml") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::string mail = text.str();
    if (mail.find("\r\nTo: " + email + "\r\n") != std::string::npos && mail.find("mentioned you") != std::string::npos)
      found.emplace_back(entry.path().filename().string(), mail);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> mails;
  for (auto& [name, mail] : found) mails.push_back(mail);
  return mails;
}

// Waits for `count` mention mails to `email` (or 30 s) and returns them.
std::vector<std::string> waitForMentionMails(const std::string& dataDir, const std::string& email, std::size_t count) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (mentionMails(dataDir, email).size() < count && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return mentionMails(dataDir, email);
}

// With server.public_url, a mention's link is under it, whatever Host the request named.
class CommentThreadsWithAPublicUrl : public CommentThreads {
 protected:
  std::map<std::string, std::string> serverEnv() override {
    return {{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.test/"}};
  }
};

TEST_F(CommentThreadsWithAPublicUrl, MentionMailsLinkUnderThePublicUrl) {
  threads(carol_);  // carol uses her grant
  Headers headers = as(bob_);
  headers["Host"] = "evil.example";
  auto created = call("POST", comments(page_), json{{"body", "@carol@example.com see"}, {"quote", "q"}}, headers);
  ASSERT_EQ(created.status, 201) << created.body;
  std::int64_t threadId = parse(created)["thread"]["id"];
  auto mails = waitForMentionMails(docsd_->dataDir(), "carol@example.com", 1);
  ASSERT_EQ(mails.size(), 1u);
  std::string link = "https://docs.example.test/projects/" + std::to_string(projectId_) + "/" + std::to_string(page_) +
                     "?thread=" + std::to_string(threadId);
  EXPECT_NE(mails[0].find(link), std::string::npos) << mails[0];
  EXPECT_EQ(mails[0].find("evil.example"), std::string::npos) << mails[0];
}

// Without server.public_url there is no link at all: the Host header (or a proxy's
// forwarded host) is the caller's to choose.
TEST_F(CommentThreads, WithoutAPublicUrlAMentionMailCarriesNoLink) {
  threads(carol_);
  Headers headers = as(bob_);
  headers["Host"] = "evil.example";
  auto created = call("POST", comments(page_), json{{"body", "@carol@example.com see"}, {"quote", "q"}}, headers);
  ASSERT_EQ(created.status, 201) << created.body;
  auto mails = waitForMentionMails(docsd_->dataDir(), "carol@example.com", 1);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].find("evil.example"), std::string::npos) << mails[0];
  EXPECT_EQ(mails[0].find("Open the thread"), std::string::npos) << mails[0];
  EXPECT_NE(mails[0].find("@carol@example.com see"), std::string::npos) << mails[0];
}

// Mentions mail only accounts that use their grant: outside addresses granted a role
// (pending invitations) and members who never used theirs get nothing, however many.
TEST_F(CommentThreads, MentionsMailOnlyAccountsThatClaimedTheirGrant) {
  for (int i = 0; i < 5; ++i) grant(alice_, projectId_, "v" + std::to_string(i) + "@outside.example", "read");
  std::string body = "hello";
  for (int i = 0; i < 5; ++i) body += " @v" + std::to_string(i) + "@outside.example";
  body += " @carol@example.com";  // granted, has an account, never used the grant
  ASSERT_EQ(post(bob_, json{{"body", body}}).status, 201);
  EXPECT_EQ(sql("SELECT count(*) FROM jobs WHERE kind = 'auth.send_mail' AND payload->>'subject' LIKE '%mentioned%'"),
            "0");
  threads(carol_);  // now she has used it
  ASSERT_EQ(post(bob_, json{{"body", body}}).status, 201);
  EXPECT_EQ(waitForMentionMails(docsd_->dataDir(), "carol@example.com", 1).size(), 1u);
  EXPECT_EQ(sql("SELECT count(*) FROM jobs WHERE kind = 'auth.send_mail' AND payload->>'to' LIKE '%outside.example'"),
            "0");
}

// At most comments.mentions_per_comment addresses of one comment are mailed (the first in
// the text), and one author causes at most comments.mention_mails_per_day mails: new
// threads (each with its own per-thread window) do not get around it.
class CommentMentionCaps : public CommentThreads {
 protected:
  std::map<std::string, std::string> serverEnv() override {
    return {{"DOCS_COMMENTS_MENTIONS_PER_COMMENT", "2"}, {"DOCS_COMMENTS_MENTION_MAILS_PER_DAY", "3"}};
  }
};

TEST_F(CommentMentionCaps, MentionsPerCommentAndMailsPerAuthorAndDayAreCapped) {
  grant(alice_, projectId_, "dave@example.com", "read");
  for (const auto* who : {&alice_, &carol_, &dave_}) threads(*who);
  auto mailJobs = [&] {
    return std::stoi(
        sql("SELECT count(*) FROM jobs WHERE kind = 'auth.send_mail' AND payload->>'subject' LIKE "
            "'%mentioned%'"));
  };
  ASSERT_EQ(post(bob_, json{{"body", "@dave@example.com @carol@example.com @alice@example.com all"}}).status, 201);
  EXPECT_EQ(mailJobs(), 2);
  EXPECT_EQ(waitForMentionMails(docsd_->dataDir(), "dave@example.com", 1).size(), 1u);
  EXPECT_EQ(waitForMentionMails(docsd_->dataDir(), "carol@example.com", 1).size(), 1u);
  EXPECT_TRUE(mentionMails(docsd_->dataDir(), "alice@example.com").empty());
  // Each comment without thread_id is a new thread: the daily cap still holds.
  for (int i = 0; i < 4; ++i) ASSERT_EQ(post(bob_, json{{"body", "@alice@example.com again"}}).status, 201);
  EXPECT_EQ(mailJobs(), 3);
  // Another author has an allowance of their own.
  ASSERT_EQ(post(alice_, json{{"body", "@carol@example.com from alice"}}).status, 201);
  EXPECT_EQ(mailJobs(), 4);
  // A day later bob's allowance is back.
  sql("UPDATE comment_mention_sends SET sent_at = now() - interval '25 hours'");
  ASSERT_EQ(post(bob_, json{{"body", "@dave@example.com later"}}).status, 201);
  EXPECT_EQ(mailJobs(), 5);
}

TEST_F(CommentThreads, MentionsMailMembersOncePerThreadInTenMinutes) {
  auto jobs = [&] { return sql("SELECT count(*) FROM jobs WHERE kind = 'auth.send_mail'"); };
  auto waitForMails = [&](const std::string& email, std::size_t count) {
    return waitForMentionMails(docsd_->dataDir(), email, count);
  };
  threads(carol_);  // carol has used her grant (alice's is hers as the creator)
  // carol reads, alice administers: members; dave holds no role; bob is the author.
  auto created =
      post(bob_, json{{"body", "@Carol@Example.com @alice@example.com @dave@example.com @bob@example.com see"},
                      {"quote", "the passage"}});
  ASSERT_EQ(created.status, 201) << created.body;
  std::int64_t threadId = parse(created)["thread"]["id"];
  EXPECT_EQ(jobs(), "2");
  auto toCarol = waitForMails("carol@example.com", 1);
  ASSERT_EQ(toCarol.size(), 1u);
  EXPECT_NE(toCarol[0].find("> the passage"), std::string::npos) << toCarol[0];
  EXPECT_EQ(waitForMails("alice@example.com", 1).size(), 1u);

  // Within ten minutes the same thread mails carol no more, edits included; another thread does.
  ASSERT_EQ(post(bob_, json{{"body", "again @carol@example.com"}, {"thread_id", threadId}}).status, 201);
  ASSERT_EQ(
      call("PATCH", comment(parse(created)["comment"]["id"]), json{{"body", "edited @carol@example.com"}}, as(bob_))
          .status,
      200);
  EXPECT_EQ(jobs(), "2");
  ASSERT_EQ(post(bob_, json{{"body", "elsewhere @carol@example.com"}}).status, 201);
  EXPECT_EQ(jobs(), "3");
  EXPECT_EQ(waitForMails("carol@example.com", 2).size(), 2u);
  // Ten minutes later the first thread may mail her again.
  sql("UPDATE comment_mention_mails SET sent_at = now() - interval '11 minutes' WHERE thread_id = " +
      std::to_string(threadId));
  ASSERT_EQ(post(alice_, json{{"body", "ping @carol@example.com"}, {"thread_id", threadId}}).status, 201);
  EXPECT_EQ(jobs(), "4");
  EXPECT_EQ(waitForMails("carol@example.com", 3).size(), 3u);
  // Strangers and the author got nothing.
  EXPECT_TRUE(mentionMails(docsd_->dataDir(), "dave@example.com").empty());
  EXPECT_TRUE(mentionMails(docsd_->dataDir(), "bob@example.com").empty());
}

class CommentLimits : public CommentThreads {
 protected:
  void SetUp() override { start({{"DOCS_COMMENTS_WRITES_PER_MINUTE", "3"}}); }
};

TEST_F(CommentLimits, WritesPastTheLimitAre429) {
  for (int i = 0; i < 3; ++i) ASSERT_EQ(post(bob_, json{{"body", "n" + std::to_string(i)}}).status, 201);
  auto limited = post(bob_, json{{"body", "one too many"}});
  expectError(limited, 429);
  EXPECT_EQ(parse(limited)["error"]["code"], "rate_limited");
  EXPECT_FALSE(limited.header("retry-after").empty());
  // Per user: another writer still writes; reading is not limited.
  ASSERT_EQ(post(alice_, json{{"body", "mine"}}).status, 201);
  EXPECT_EQ(threads(bob_).size(), 4u);
}

}  // namespace
