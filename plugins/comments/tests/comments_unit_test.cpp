// The comment rules without a server: body and quote limits, mentions, anchors, the
// write limiter.
#include <gtest/gtest.h>

#include <docs/http.hpp>
#include <docs/ydoc/ydoc.hpp>

#include "anchors.hpp"
#include "comment_body.hpp"
#include "write_limiter.hpp"

using namespace docs_comments;

TEST(CommentBody, TrimsAndLimits) {
  EXPECT_EQ(validBody("  hello **there**\n"), "hello **there**");
  EXPECT_THROW(validBody(" \n\t "), docs::HttpError);
  EXPECT_NO_THROW(validBody(std::string(kMaxBodyChars, 'x')));
  EXPECT_THROW(validBody(std::string(kMaxBodyChars + 1, 'x')), docs::HttpError);
  // Code points, not bytes: 10,000 Cyrillic letters are 20,000 bytes and fit.
  std::string cyrillic;
  for (std::size_t i = 0; i < kMaxBodyChars; ++i) cyrillic += "\xd0\x96";
  EXPECT_NO_THROW(validBody(cyrillic));
  EXPECT_THROW(validBody(std::string("a\0b", 3)), docs::HttpError);
  EXPECT_THROW(validBody("bell\x07"), docs::HttpError);
  EXPECT_EQ(validBody("line one\r\nline\ttwo"), "line one\r\nline\ttwo");
}

TEST(CommentBody, QuoteCollapsesWhitespace) {
  EXPECT_EQ(validQuote("  the   quick\n brown "), "the quick brown");
  EXPECT_EQ(validQuote(""), "");
  EXPECT_THROW(validQuote(std::string(kMaxQuoteChars + 1, 'q')), docs::HttpError);
  EXPECT_THROW(validQuote("x\x01"), docs::HttpError);
}

TEST(CommentBody, Mentions) {
  EXPECT_EQ(mentionedEmails("hi @Alice@Example.com and @bob@example.org."),
            (std::vector<std::string>{"alice@example.com", "bob@example.org"}));
  EXPECT_EQ(mentionedEmails("@a@x.io @a@x.io"), (std::vector<std::string>{"a@x.io"}));
  // Not mentions: an address without the @, a word before the @, no dot in the domain.
  EXPECT_TRUE(mentionedEmails("mail alice@example.com").empty());
  EXPECT_TRUE(mentionedEmails("x@alice@example.com").empty());
  EXPECT_TRUE(mentionedEmails("@alice@localhost").empty());
  EXPECT_TRUE(mentionedEmails("@@alice@example.com").empty());
  EXPECT_EQ(mentionedEmails("(@c@d.ee)"), (std::vector<std::string>{"c@d.ee"}));
}

TEST(Anchors, ThreadIdsOfCommentMarks) {
  auto pm = docs::ydoc::Json::parse(R"({"type":"doc","content":[{"type":"paragraph","content":[
    {"type":"text","text":"a","marks":[{"type":"comment","attrs":{"thread_id":7}}]},
    {"type":"text","text":"b","marks":[{"type":"comment","attrs":{"thread_id":"12"}},{"type":"bold"}]},
    {"type":"text","text":"c","marks":[{"type":"comment","attrs":{"thread_id":"x"}}]},
    {"type":"text","text":"d","marks":[{"type":"link","attrs":{"href":"https://e.com","thread_id":9}}]}]}]})");
  EXPECT_EQ(markedThreads(pm), (std::set<std::int64_t>{7, 12}));
  auto bytes = docs::ydoc::proseMirrorJsonToUpdate(pm, 5);
  auto fromUpdate = markedThreadsOfUpdate(std::string(bytes.begin(), bytes.end()));
  ASSERT_TRUE(fromUpdate.has_value());
  EXPECT_EQ(*fromUpdate, (std::set<std::int64_t>{7, 12}));
  EXPECT_FALSE(markedThreadsOfUpdate(std::string("\xff\xff\xff", 3)).has_value());
  EXPECT_TRUE(markedThreadsOfUpdate(std::nullopt)->empty());
}

TEST(Anchors, ExportsDropTheMark) {
  auto pm = docs::ydoc::Json::parse(R"({"type":"doc","content":[{"type":"paragraph","content":[
    {"type":"text","text":"see ","marks":[]},
    {"type":"text","text":"this","marks":[{"type":"comment","attrs":{"thread_id":3}}]}]}]})");
  auto doc = docs::ydoc::proseMirrorJsonToUpdate(pm, 5);
  docs::ydoc::Doc loaded;
  loaded.applyUpdate(doc);
  auto back = docs::ydoc::toProseMirrorJson(loaded);
  EXPECT_EQ(docs::ydoc::toMarkdown(back), "see this\n");
  EXPECT_EQ(docs::ydoc::toHtml(back).find("thread"), std::string::npos);
  EXPECT_NE(docs::ydoc::toHtml(back).find("see this"), std::string::npos);
}

TEST(WriteLimiter, RefillsOverAMinute) {
  WriteLimiter limiter(3);
  auto t0 = WriteLimiter::Clock::now();
  EXPECT_EQ(limiter.take("u", t0), 0);
  EXPECT_EQ(limiter.take("u", t0), 0);
  EXPECT_EQ(limiter.take("u", t0), 0);
  EXPECT_EQ(limiter.take("u", t0), 20);  // one write per 20 s comes back
  EXPECT_EQ(limiter.take("other", t0), 0);
  EXPECT_EQ(limiter.take("u", t0 + std::chrono::seconds(21)), 0);
  EXPECT_GT(limiter.take("u", t0 + std::chrono::seconds(21)), 0);
  WriteLimiter unlimited(0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(unlimited.take("u", t0), 0);
}
