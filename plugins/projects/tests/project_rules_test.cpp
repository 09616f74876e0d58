// Project rules and the streaming multipart reader, without a server.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <docs/support/body_fields.hpp>
#include "json_writer.hpp"
#include "multipart_reader.hpp"
#include "project_rules.hpp"

using namespace docs_projects;
using namespace docs::support;

TEST(ProjectRules, StatusBadgeOrder) {
  EXPECT_EQ(statusSortOrder("DOC_SUCCESS"), 1);
  EXPECT_EQ(statusSortOrder("READY"), 1);
  EXPECT_EQ(statusSortOrder("DOC_UPDATING"), 2);
  for (const char* s :
       {"IDLE", "REQUEST_TO_CLONE", "CLONING", "CLONE_SUCCESS", "DOC_PENDING", "DOC_FILE_OVERVIEWS_GENERATING",
        "DOC_FILE_OVERVIEWS_FAILED", "DOC_PROJECT_OVERVIEW_GENERATING", "DOC_PROJECT_OVERVIEW_FAILED",
        "DOC_TOPICS_GENERATING", "DOC_TOPIC_PAGES_GENERATING", "DOC_SUBTOPICS_GENERATING", "DOC_FILE_PAGES_GENERATING"})
    EXPECT_EQ(statusSortOrder(s), 3) << s;
  EXPECT_EQ(statusSortOrder("DOC_FILE_PAGES_FAILED"), 4);
  for (const char* s : {"CLONE_FAIL", "PULL_FAIL", "DOC_TOPICS_FAILED", "DOC_TOPIC_PAGES_FAILED", "DOC_FAILURE"})
    EXPECT_EQ(statusSortOrder(s), 5) << s;
  EXPECT_EQ(statusSortOrder("ready"), 6);
  EXPECT_FALSE(isKnownStatus("WHATEVER"));
}

TEST(ProjectRules, Names) {
  EXPECT_EQ(validNewName("  My \t  project\n"), "My project");
  EXPECT_THROW(validNewName("   "), docs::HttpError);
  EXPECT_EQ(validNewName(std::string(120, 'a')), std::string(120, 'a'));
  EXPECT_THROW(validNewName(std::string(121, 'a')), docs::HttpError);
  // Characters, not bytes: 120 Cyrillic letters are 240 bytes.
  std::string cyrillic;
  for (int i = 0; i < 120; ++i) cyrillic += "\xd0\x96";
  EXPECT_EQ(validNewName(cyrillic), cyrillic);
  EXPECT_EQ(validRename("  "), std::nullopt);
  EXPECT_EQ(validRename(std::string("a\0b", 3)), "a b");
  EXPECT_EQ(validDescription(""), "No description");
  EXPECT_EQ(validDescription(" \n "), "No description");
  EXPECT_THROW(validDescription(std::string(1001, 'd')), docs::HttpError);
  EXPECT_EQ(validLanguage(std::nullopt), "en");
  EXPECT_EQ(validLanguage(std::string("de")), "de");
  EXPECT_THROW(validLanguage(std::string("fr")), docs::HttpError);
}

TEST(ProjectRules, GitUrls) {
  for (const char* url :
       {"github.com/octo/hello", "https://github.com/octo/hello", "http://www.github.com/octo/hello.git",
        "https://GitHub.com/octo/hello/tree/main", "github.com/octo/hello?tab=readme"}) {
    auto repo = parseGitUrl(url);
    ASSERT_TRUE(repo) << url;
    EXPECT_EQ(repo->url(), "https://github.com/octo/hello") << url;
  }
  for (const char* url : {"", "github.com/octo", "https://gitlab.com/octo/hello", "github.com//hello",
                          "github.com/o/h w", "evilgithub.com/octo/hello", "github.com/../etc"})
    EXPECT_FALSE(parseGitUrl(url)) << url;
}

namespace {
// Hands out the body in pieces of a fixed size, like a slow network.
class PieceReader final : public docs::BodyReader {
 public:
  PieceReader(std::string body, std::size_t piece) : body_(std::move(body)), piece_(piece) {}
  std::size_t read(char* buffer, std::size_t size) override {
    std::size_t n = std::min({size, piece_, body_.size() - offset_});
    std::copy_n(body_.data() + offset_, n, buffer);
    offset_ += n;
    return n;
  }

 private:
  std::string body_;
  std::size_t piece_;
  std::size_t offset_ = 0;
};

std::string readAll(MultipartReader& reader) {
  std::string out;
  char buffer[7];
  while (std::size_t n = reader.read(buffer, sizeof buffer)) out.append(buffer, n);
  return out;
}
}  // namespace

TEST(Multipart, Boundary) {
  EXPECT_EQ(multipartBoundary("multipart/form-data; boundary=abc"), "abc");
  EXPECT_EQ(multipartBoundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\""), "a b");
  EXPECT_FALSE(multipartBoundary("application/zip"));
  EXPECT_FALSE(multipartBoundary("multipart/form-data"));
}

TEST(Multipart, PartsInAnyPieceSize) {
  // Content that nearly matches the delimiter must pass through untouched.
  std::string tricky = "PK\r\n--XY not quite\r\n--X\r\n-\r\n--XY";
  std::string body =
      "preamble\r\n--XYZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nhello\r\n--XYZ\r\n"
      "Content-Disposition: form-data; name=\"file\"; filename=\"src.zip\"\r\nContent-Type: Application/Zip\r\n\r\n" +
      tricky + "\r\n--XYZ--\r\n";
  for (std::size_t piece : {1u, 2u, 3u, 5u, 16u, 1000u}) {
    PieceReader source(body, piece);
    MultipartReader reader(source, "XYZ");
    PartHeaders part;
    ASSERT_TRUE(reader.nextPart(part)) << piece;
    EXPECT_EQ(part.name, "name");
    EXPECT_FALSE(part.fileName);
    EXPECT_EQ(readAll(reader), "hello");
    ASSERT_TRUE(reader.nextPart(part));
    EXPECT_EQ(part.name, "file");
    EXPECT_EQ(part.fileName, "src.zip");
    EXPECT_EQ(part.contentType, "application/zip");
    EXPECT_EQ(readAll(reader), tricky) << piece;
    EXPECT_FALSE(reader.nextPart(part));
  }
}

TEST(Multipart, SkipsUnreadPartsAndRefusesTruncatedBodies) {
  std::string body = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + std::string(100000, 'x') +
                     "\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.zip\"\r\n\r\nzip\r\n--B--";
  PieceReader source(body, 4096);
  MultipartReader reader(source, "B");
  PartHeaders part;
  ASSERT_TRUE(reader.nextPart(part));
  ASSERT_TRUE(reader.nextPart(part));  // the first part's 100000 bytes are skipped
  EXPECT_EQ(readAll(reader), "zip");

  std::string cut = body.substr(0, 50000);
  PieceReader cutSource(cut, 4096);
  MultipartReader cutReader(cutSource, "B");
  ASSERT_TRUE(cutReader.nextPart(part));
  try {
    readAll(cutReader);
    FAIL() << "a cut body must not read as complete";
  } catch (const docs::HttpError& error) {
    EXPECT_EQ(error.status(), 400);
    EXPECT_EQ(error.code(), "body_incomplete");
  }
  PieceReader noBoundary("just bytes", 3);
  MultipartReader garbage(noBoundary, "B");
  EXPECT_THROW(garbage.nextPart(part), docs::HttpError);
}

TEST(PageListJson, MatchesAJsonLibrary) {
  docs::PageSummary page;
  page.id = 12;
  page.projectId = 7;
  page.parentId = 0;
  page.name = "Quote \" back\\slash \n tab\t ctl\x01 \xd0\x96 end";
  page.type = "generated";
  page.position = 3;
  page.createdAt = "2026-11-22T19:00:00.000Z";
  page.updatedAt = "2026-11-22T19:00:01.000Z";
  std::string out;
  appendPageArray(out, {page, page});
  auto parsed = docs::Json::parse(out);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0]["name"], page.name);
  EXPECT_EQ(parsed[1]["id"], 12);
  EXPECT_EQ(parsed[0]["parent_id"], 0);
  EXPECT_EQ(parsed[0]["updated_at"], page.updatedAt);
  std::string empty;
  appendPageArray(empty, {});
  EXPECT_EQ(empty, "[]");
}

TEST(ProjectJson, WriterMatchesTheTree) {
  ProjectRow p;
  p.id = 3;
  p.type = "github";
  p.name = "Na\"me";
  p.description = "No description";
  p.language = "de";
  p.gitUrl = "https://github.com/o/r";
  p.gitRepositoryId = 99;
  p.status = "READY";
  p.visibility = "public";
  p.defaultPageId = 5;
  p.createdAt = "2026-01-01T00:00:00.000Z";
  p.updatedAt = "2026-01-02T00:00:00.000Z";
  for (std::string_view role : {"admin", "none"}) {
    std::string out;
    appendProjectObject(out, p, role);
    EXPECT_EQ(docs::Json::parse(out), projectJson(p, role)) << out;
  }
  p.defaultPageId = 0;
  p.gitUrl.reset();
  std::string out;
  appendProjectObject(out, p, "read");
  EXPECT_EQ(docs::Json::parse(out), projectJson(p, "read")) << out;
}

TEST(Timestamps, PostgresTextToIso) {
  EXPECT_EQ(isoTimestamp("2026-11-22 19:00:00.123456"), "2026-11-22T19:00:00.123Z");
  EXPECT_EQ(isoTimestamp("2026-11-22 19:00:00.1"), "2026-11-22T19:00:00.100Z");
  EXPECT_EQ(isoTimestamp("2026-11-22 19:00:00"), "2026-11-22T19:00:00.000Z");
}

TEST(Multipart, RandomContentAndPieceSizesRoundTrip) {
  // Content made of boundary fragments, CRLFs and dashes: everything short of the full
  // delimiter must come through byte for byte, whatever the piece size.
  std::mt19937 random(12345);
  const std::string boundary = "----docsBoundary7";
  const std::vector<std::string> atoms = {"\r",
                                          "\n",
                                          "-",
                                          "--",
                                          "\r\n--",
                                          "----docs",
                                          "Boundary",
                                          "\r\n----docsBoundary",
                                          "x",
                                          "PK\x03\x04",
                                          std::string(1, '\0'),
                                          "\xff"};
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> contents(1 + random() % 3);
    for (auto& content : contents) {
      int n = static_cast<int>(random() % 40);
      for (int i = 0; i < n; ++i) content += atoms[random() % atoms.size()];
      // Never the whole delimiter (a sender picks a boundary absent from the content).
      for (std::size_t at; (at = content.find("\r\n--" + boundary)) != std::string::npos;) content.erase(at, 2);
      if (content.size() >= boundary.size() + 2 && content.rfind("--" + boundary, 0) == 0) content.insert(0, "x");
    }
    std::string body = "--" + boundary;
    for (std::size_t i = 0; i < contents.size(); ++i)
      body += "\r\nContent-Disposition: form-data; name=\"f" + std::to_string(i) + "\"\r\n\r\n" + contents[i] +
              "\r\n--" + boundary;
    body += "--\r\n";
    std::size_t piece = 1 + random() % 50;
    PieceReader source(body, piece);
    MultipartReader reader(source, boundary);
    PartHeaders part;
    for (std::size_t i = 0; i < contents.size(); ++i) {
      ASSERT_TRUE(reader.nextPart(part)) << round;
      EXPECT_EQ(part.name, "f" + std::to_string(i));
      ASSERT_EQ(readAll(reader), contents[i]) << "round " << round << " piece " << piece;
    }
    EXPECT_FALSE(reader.nextPart(part)) << round;
  }
}
