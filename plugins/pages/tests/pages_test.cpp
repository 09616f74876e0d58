// The Pages calls against a real docsd: the tree rules, content, export and images.
#include <sys/socket.h>
#include <unistd.h>

#include <docs/ydoc/ydoc.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "decode.hpp"
#include "rest_fixture.hpp"

namespace fs = std::filesystem;
using namespace docs::rest_test;

namespace {

std::string yjsDocument(const docs::ydoc::Json& pm) {
  auto bytes = docs::ydoc::proseMirrorJsonToUpdate(pm, 99);
  return base64(std::string(bytes.begin(), bytes.end()));
}

class Pages : public RestTest {
 protected:
  virtual std::map<std::string, std::string> serverEnv() { return {}; }
  void SetUp() override {
    startServer(serverEnv());
    alice_ = signIn("alice@example.com");
    auto project = createProject(alice_, "Tree", false);
    projectId_ = project["id"];
    rootPage_ = project["default_page_id"];
  }
  static std::string page(std::int64_t id) { return "/api/page/" + std::to_string(id); }
  std::int64_t newPage(std::int64_t parent = 0) { return createPage(alice_, projectId_, parent)["id"]; }
  HttpResponse move(std::int64_t id, const json& parent) {
    return call("PATCH", page(id), json{{"parent_id", parent}}, as(alice_));
  }
  json pages() {
    return parse(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(alice_)))["pages"];
  }
  std::string uploadPath(std::int64_t pageId) {
    return "/api/project/" + std::to_string(projectId_) + "/page/" + std::to_string(pageId) + "/upload";
  }
  HttpResponse uploadImage(std::int64_t pageId, const std::string& bytes, const std::string& type) {
    Headers headers = as(alice_);
    headers["Content-Type"] = type;
    return call("POST", uploadPath(pageId), bytes, headers);
  }
  fs::path imageDir(std::int64_t pageId) {
    return fs::path(docsd_->dataDir()) / "images" / std::to_string(projectId_) / std::to_string(pageId);
  }
  static std::string pathOf(const std::string& url) {
    auto start = url.find("/api/");
    return url.substr(start);
  }

  docs::test::SignedIn alice_;
  std::int64_t projectId_ = 0;
  std::int64_t rootPage_ = 0;
};

}  // namespace

TEST_F(Pages, CreateGetRenameWithDefaults) {
  auto created = createPage(alice_, projectId_, rootPage_);
  EXPECT_EQ(created["name"], "Untitled");
  EXPECT_EQ(created["parent_id"], rootPage_);
  EXPECT_EQ(created["project_id"], projectId_);
  EXPECT_EQ(created["type"], "generated");
  auto got = parse(call("GET", page(created["id"]), "", as(alice_)));
  EXPECT_TRUE(got.contains("content_bytea"));
  EXPECT_TRUE(got["content_bytea"].is_null());
  EXPECT_EQ(parse(call("PATCH", page(created["id"]), json{{"name", "  Setup \n guide "}}, as(alice_)))["name"],
            "Setup guide");
  EXPECT_EQ(parse(call("PATCH", page(created["id"]), json{{"name", ""}}, as(alice_)))["name"], "Untitled");
  expectError(call("PATCH", page(created["id"]), json{{"name", std::string(256, 'x')}}, as(alice_)), 400,
              "Page name must be at most 255 characters");
  expectError(call("PATCH", page(created["id"]), json{{"title", "x"}}, as(alice_)), 400, "Unknown field 'title'");
  expectError(call("PATCH", page(created["id"]), json::object(), as(alice_)), 400, "Send name or parent_id");
  expectError(call("PATCH", page(created["id"]), json{{"parent_id", "two"}}, as(alice_)), 400);
  expectError(call("PATCH", page(created["id"]), json{{"name", std::string(10 << 20, 'x')}}, as(alice_)), 413);
  // The body is optional on create.
  auto bare = call("POST", "/api/project/" + std::to_string(projectId_) + "/page", "", as(alice_));
  EXPECT_EQ(bare.status, 201) << bare.body;
  for (const char* id : {"abc", "-3", "0", "99999999999999999999"})
    expectError(call("GET", std::string("/api/page/") + id, "", as(alice_)), 400);
  expectError(call("GET", "/api/page/77777777", "", as(alice_)), 404);
}

TEST_F(Pages, MovesRefuseCyclesAndKeepSiblingOrder) {
  std::int64_t a = newPage(), b = newPage(a), c = newPage(b);
  expectError(move(a, a), 400, "A page cannot be moved onto itself or its own descendant");
  expectError(move(a, c), 400, "A page cannot be moved onto itself or its own descendant");
  expectError(move(a, b), 400, "A page cannot be moved onto itself or its own descendant");
  expectError(move(a, 987654321), 400, "The new parent is not a page of this project");
  ASSERT_EQ(move(c, nullptr).status, 200);  // null, like 0, means the root
  ASSERT_EQ(move(b, 0).status, 200);
  ASSERT_EQ(move(a, c).status, 200);
  // Roots in creation/move order: the first page, then c, then b (appended as they arrived).
  std::vector<std::int64_t> roots;
  for (const auto& p : pages())
    if (p["parent_id"] == 0) roots.push_back(p["id"]);
  EXPECT_EQ(roots, (std::vector<std::int64_t>{rootPage_, c, b}));
  // Moving a page to where it already is keeps its place.
  ASSERT_EQ(move(c, 0).status, 200);
  roots.clear();
  for (const auto& p : pages())
    if (p["parent_id"] == 0) roots.push_back(p["id"]);
  EXPECT_EQ(roots, (std::vector<std::int64_t>{rootPage_, c, b}));
}

TEST_F(Pages, ConcurrentCrossMovesNeverMakeACycle) {
  for (int round = 0; round < 5; ++round) {
    std::int64_t x = newPage(), y = newPage();
    HttpResponse first, second;
    std::thread t1([&] { first = move(x, y); });
    std::thread t2([&] { second = move(y, x); });
    t1.join();
    t2.join();
    EXPECT_TRUE((first.status == 200) != (second.status == 200)) << first.body << second.body;
  }
}

TEST_F(Pages, DeletingAPageDeletesItsSubtreeAndFixesTheDefault) {
  std::int64_t keep = newPage();
  std::int64_t a = newPage(rootPage_), b = newPage(a), c = newPage(b);
  ASSERT_EQ(uploadImage(b, pngBytes(), "image/png").status, 200);
  ASSERT_TRUE(fs::exists(imageDir(b)));
  auto deleted = call("DELETE", page(rootPage_), "", as(alice_));
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  auto ids = parse(deleted)["deleted"].get<std::vector<std::int64_t>>();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::int64_t>{rootPage_, a, b, c}));
  for (auto id : {rootPage_, a, b, c}) EXPECT_EQ(call("GET", page(id), "", as(alice_)).status, 404);
  EXPECT_FALSE(fs::exists(imageDir(b)));
  auto project = parse(call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(alice_)));
  EXPECT_EQ(project["pages"].size(), 1u);
  EXPECT_EQ(project["default_page_id"], keep);
  EXPECT_EQ(call("DELETE", page(rootPage_), "", as(alice_)).status, 404);
}

TEST_F(Pages, TenThousandPagesListInOneCall) {
  // Fixture rows straight into the table: 100 roots with 99 children each.
  sql("INSERT INTO pages (project_id, parent_id, name, position) SELECT " + std::to_string(projectId_) +
      ", NULL, 'Root ' || g, g + 1 FROM generate_series(1, 100) g");
  sql("INSERT INTO pages (project_id, parent_id, name, position) SELECT r.project_id, r.id, 'Child ' || g, g"
      " FROM pages r, generate_series(1, 99) g WHERE r.project_id = " +
      std::to_string(projectId_) + " AND r.name LIKE 'Root %'");
  // Speed is measured by bench/rest (statements per request, latency), not asserted here.
  auto response = call("GET", "/api/project?projectId=" + std::to_string(projectId_), "", as(alice_));
  ASSERT_EQ(response.status, 200);
  auto list = parse(response)["pages"];
  EXPECT_EQ(list.size(), 10001u);
  std::set<std::int64_t> ids;
  for (const auto& p : list) ids.insert(p["id"].get<std::int64_t>());
  for (const auto& p : list)
    if (p["parent_id"] != 0) {
      EXPECT_TRUE(ids.count(p["parent_id"].get<std::int64_t>()));
    }
  // Deleting a root takes its 99 children along.
  std::int64_t someRoot = 0;
  for (const auto& p : list)
    if (p["name"] == "Root 50") someRoot = p["id"];
  auto deleted = call("DELETE", page(someRoot), "", as(alice_));
  EXPECT_EQ(parse(deleted)["deleted"].size(), 100u);
}

TEST_F(Pages, ContentRoundTripAndExport) {
  expectError(call("GET", page(rootPage_) + "/content", "", as(alice_)), 404, "This page has no stored content");
  EXPECT_EQ(call("GET", page(rootPage_) + "/export?format=md", "", as(alice_)).body, "");
  docs::ydoc::Json pm = {
      {"type", "doc"},
      {"content",
       {{{"type", "heading"}, {"attrs", {{"level", 2}}}, {"content", {{{"type", "text"}, {"text", "Install"}}}}},
        {{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "Run <make>."}}}}}}}};
  std::string encoded = yjsDocument(pm);
  ASSERT_EQ(call("PUT", page(rootPage_) + "/content", json{{"content_bytea", encoded}}, as(alice_)).status, 200);
  EXPECT_EQ(parse(call("GET", page(rootPage_) + "/content", "", as(alice_)))["content_bytea"], encoded);
  EXPECT_EQ(parse(call("GET", page(rootPage_), "", as(alice_)))["content_bytea"], encoded);
  auto md = call("GET", page(rootPage_) + "/export?format=md", "");
  EXPECT_EQ(md.status, 200);
  EXPECT_EQ(md.header("content-type"), "text/markdown; charset=utf-8");
  EXPECT_NE(md.body.find("## Install"), std::string::npos) << md.body;
  auto html = call("GET", page(rootPage_) + "/export?format=html", "");
  EXPECT_EQ(html.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(html.body.find("<h2>Install</h2>"), std::string::npos) << html.body;
  EXPECT_NE(html.body.find("&lt;make&gt;"), std::string::npos) << html.body;
  // Opened as a page it runs nothing (sandbox) and downloads unless asked for inline.
  EXPECT_EQ(html.header("content-security-policy").rfind("sandbox; default-src 'none';", 0), 0u)
      << html.header("content-security-policy");
  EXPECT_EQ(html.header("content-disposition"), "attachment; filename=\"page-" + std::to_string(rootPage_) + ".html\"");
  auto inlineHtml = call("GET", page(rootPage_) + "/export?format=html&disposition=inline", "");
  EXPECT_EQ(inlineHtml.header("content-disposition"),
            "inline; filename=\"page-" + std::to_string(rootPage_) + ".html\"");
  EXPECT_EQ(inlineHtml.header("content-security-policy"), html.header("content-security-policy"));
  expectError(call("GET", page(rootPage_) + "/export?format=pdf", ""), 400, "'format' must be md or html");
  expectError(call("GET", page(rootPage_) + "/export", ""), 400);
  expectError(call("PUT", page(rootPage_) + "/content", json{{"content_bytea", "bm90IHlqcw=="}}, as(alice_)), 400,
              "'content_bytea' must be a base64 Yjs document update");
  expectError(call("PUT", page(rootPage_) + "/content", json{{"content_bytea", "%%%"}}, as(alice_)), 400);
  expectError(call("PUT", page(rootPage_) + "/content", json{{"content_bytea", 12}}, as(alice_)), 400);
  // A real update that builds on changes this page never had: it decodes but does not apply.
  {
    docs::ydoc::Doc elsewhere(4242);
    docs::ydoc::appendProseMirrorJson(elsewhere, {{"type", "doc"}, {"content", {{{"type", "paragraph"}}}}});
    auto base = elsewhere.encodeStateVector();
    docs::ydoc::appendProseMirrorJson(
        elsewhere, {{"type", "doc"},
                    {"content", {{{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", "orphan"}}}}}}}});
    auto orphan = elsewhere.encodeStateAsUpdate(base);
    expectError(
        call("PUT", page(rootPage_) + "/content",
             json{{"content_bytea", docs::codec::base64Encode(std::string(orphan.begin(), orphan.end()))}}, as(alice_)),
        400, "'content_bytea' does not apply to this page's document");
  }
  // The bad writes changed nothing.
  EXPECT_EQ(parse(call("GET", page(rootPage_) + "/content", "", as(alice_)))["content_bytea"], encoded);
}

TEST_F(Pages, ImagesAreCheckedByTheirBytes) {
  auto ok = uploadImage(rootPage_, pngBytes(1000), "image/png");
  ASSERT_EQ(ok.status, 200) << ok.body;
  std::string url = parse(ok)["url"];
  EXPECT_NE(url.find("/api/project/" + std::to_string(projectId_) + "/page/" + std::to_string(rootPage_) + "/image/"),
            std::string::npos);
  auto served = call("GET", pathOf(url), "");  // public project: anyone
  EXPECT_EQ(served.status, 200);
  EXPECT_EQ(served.body, pngBytes(1000));
  EXPECT_EQ(served.header("content-type"), "image/png");
  EXPECT_EQ(served.header("x-content-type-options"), "nosniff");
  EXPECT_EQ(uploadImage(rootPage_, "\xFF\xD8\xFF\xE0" + std::string(100, 'j'), "image/jpeg").status, 200);
  EXPECT_EQ(uploadImage(rootPage_, "GIF89a" + std::string(100, 'g'), "image/gif").status, 200);
  std::string webp = "RIFF" + std::string(4, '\x20') + "WEBPVP8 " + std::string(50, 'w');
  EXPECT_EQ(uploadImage(rootPage_, webp, "image/webp").status, 200);

  expectError(uploadImage(rootPage_, "<!DOCTYPE html><script>alert(1)</script>", "image/png"), 400,
              "File type not supported.");
  expectError(uploadImage(rootPage_, "<svg xmlns=\"http://www.w3.org/2000/svg\"><script/></svg>", "image/svg+xml"), 400,
              "File type not supported.");
  expectError(uploadImage(rootPage_, pngBytes(), "image/jpeg"), 400, "File type not supported.");
  expectError(uploadImage(rootPage_, pngBytes(), "text/html"), 400, "File type not supported.");
  expectError(uploadImage(rootPage_, pngBytes(21 << 20), "image/png"), 413);
  expectError(call("POST", uploadPath(rootPage_), pngBytes(), {{"Content-Type", "image/png"}}), 401);
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(imageDir(rootPage_))) files += entry.is_regular_file();
  EXPECT_EQ(files, 4u) << "only the accepted images are stored";
  expectError(call("GET",
                   "/api/project/" + std::to_string(projectId_) + "/page/" + std::to_string(rootPage_) +
                       "/image/..%2F..%2Fsecret",
                   ""),
              404);
}

TEST_F(Pages, ImageStreamedPastTwentyMegabytesIs413) {
  // No Content-Length: chunked, so only counting while streaming can catch it.
  std::string chunked;
  std::string piece = pngBytes(1 << 20);
  for (int i = 0; i < 21; ++i) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx", piece.size());
    chunked += std::string(size) + "\r\n" + piece + "\r\n";
  }
  chunked += "0\r\n\r\n";
  Headers headers = as(alice_);
  headers["Content-Type"] = "image/png";
  headers["Transfer-Encoding"] = "chunked";
  expectError(call("POST", uploadPath(rootPage_), chunked, headers), 413, "File size too big (max 20MB).");
  std::error_code ec;
  EXPECT_TRUE(!fs::exists(imageDir(rootPage_), ec) || fs::is_empty(imageDir(rootPage_)));
}

TEST_F(Pages, PrivateImagesNeedAReaderOrASignedUrl) {
  auto priv = createProject(alice_, "Private", true);
  std::int64_t pid = priv["id"], pageId = priv["default_page_id"];
  Headers headers = as(alice_);
  headers["Content-Type"] = "image/png";
  auto up = call("POST", "/api/project/" + std::to_string(pid) + "/page/" + std::to_string(pageId) + "/upload",
                 pngBytes(), headers);
  ASSERT_EQ(up.status, 200) << up.body;
  std::string path = pathOf(parse(up)["url"]);
  std::string signedPath = pathOf(parse(up)["signed_url"]);
  EXPECT_EQ(call("GET", path, "").status, 404);                                 // anonymous
  EXPECT_EQ(call("GET", path, "", as(signIn("eve@example.com"))).status, 404);  // stranger
  EXPECT_EQ(call("GET", path, "", {{"Cookie", alice_.cookie}}).status, 200);    // an <img> with the session cookie
  EXPECT_EQ(call("GET", signedPath, "").status, 200);                           // a signed URL on its own
  std::string tampered = signedPath;
  tampered.back() = tampered.back() == '0' ? '1' : '0';
  EXPECT_EQ(call("GET", tampered, "").status, 404);
  auto fresh = call("GET", path + "/signed", "", as(alice_));
  ASSERT_EQ(fresh.status, 200);
  EXPECT_EQ(call("GET", pathOf(parse(fresh)["url"]), "").status, 200);
  EXPECT_EQ(call("GET", path + "/signed", "").status, 404);
}

// Behind a proxy the server trusts (the test client is on loopback), links carry the scheme
// the proxy forwarded; from anyone else the header is ignored.
class PagesBehindAProxy : public Pages {
 protected:
  std::map<std::string, std::string> serverEnv() override { return {{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"}}; }
};

TEST_F(PagesBehindAProxy, SignedUrlsUseTheOriginTheProxyForwarded) {
  Headers headers = as(alice_);
  headers["Content-Type"] = "image/png";
  headers["X-Forwarded-Proto"] = "https";
  auto up = call("POST", uploadPath(rootPage_), pngBytes(), headers);
  ASSERT_EQ(up.status, 200) << up.body;
  std::string origin = "https://localhost:" + std::to_string(port()) + "/";
  EXPECT_EQ(parse(up)["url"].get<std::string>().rfind(origin, 0), 0u) << up.body;
  EXPECT_EQ(parse(up)["signed_url"].get<std::string>().rfind(origin, 0), 0u) << up.body;
  auto fresh = call("GET", pathOf(parse(up)["url"]) + "/signed", "", headers);
  ASSERT_EQ(fresh.status, 200) << fresh.body;
  EXPECT_EQ(parse(fresh)["url"].get<std::string>().rfind(origin, 0), 0u) << fresh.body;
}

TEST_F(Pages, SignedUrlsIgnoreAForwardedSchemeFromAnUntrustedClient) {
  Headers headers = as(alice_);
  headers["Content-Type"] = "image/png";
  headers["X-Forwarded-Proto"] = "https";
  auto up = call("POST", uploadPath(rootPage_), pngBytes(), headers);
  ASSERT_EQ(up.status, 200) << up.body;
  std::string origin = "http://localhost:" + std::to_string(port()) + "/";
  EXPECT_EQ(parse(up)["signed_url"].get<std::string>().rfind(origin, 0), 0u) << up.body;
}

TEST_F(Pages, ImageUploadCutHalfwayLeavesNoFile) {
  std::string body = pngBytes(4 << 20);
  std::string head = "POST " + uploadPath(rootPage_) + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + alice_.token +
                     "\r\nContent-Type: image/png\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  int fd = docs::test::connectTo(port());
  ASSERT_GE(fd, 0);
  std::string half = head + body.substr(0, body.size() / 2);
  ASSERT_EQ(::send(fd, half.data(), half.size(), MSG_NOSIGNAL), static_cast<ssize_t>(half.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::close(fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  std::error_code ec;
  bool empty = true;
  for (int i = 0; i < 100; ++i) {
    empty = !fs::exists(imageDir(rootPage_), ec) || fs::is_empty(imageDir(rootPage_), ec);
    if (empty) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(empty);
  EXPECT_EQ(uploadImage(rootPage_, pngBytes(), "image/png").status, 200);
}

TEST_F(Pages, RandomMovesMatchAModelTree) {
  // Each move is checked against a local model: legal moves succeed, moves under the
  // page itself or a descendant fail, and the stored tree always equals the model.
  std::vector<std::int64_t> ids = {rootPage_};
  std::map<std::int64_t, std::int64_t> parent = {{rootPage_, 0}};
  for (int i = 0; i < 11; ++i) {
    std::int64_t under = ids[i / 2];
    std::int64_t id = newPage(under);
    ids.push_back(id);
    parent[id] = under;
  }
  auto isDescendantOrSelf = [&](std::int64_t node, std::int64_t of) {
    for (std::int64_t at = node; at != 0; at = parent[at])
      if (at == of) return true;
    return false;
  };
  std::mt19937 random(7);
  for (int step = 0; step < 120; ++step) {
    std::int64_t page = ids[random() % ids.size()];
    std::int64_t target = random() % 4 == 0 ? 0 : ids[random() % ids.size()];
    bool legal = target == 0 || !isDescendantOrSelf(target, page);
    auto r = move(page, target);
    ASSERT_EQ(r.status, legal ? 200 : 400) << "step " << step << ": " << r.body;
    if (legal) parent[page] = target;
  }
  for (const auto& p : pages()) EXPECT_EQ(p["parent_id"].get<std::int64_t>(), parent[p["id"].get<std::int64_t>()]);
}

// Answers of 1 KiB or more go out in Brotli or gzip when the client accepts it (core
// compresses route answers on the fly); the decoded bytes are the identity answer's.
TEST_F(Pages, LargeAnswersAreCompressedWhenAccepted) {
  sql("INSERT INTO pages (project_id, parent_id, name, position) SELECT " + std::to_string(projectId_) +
      ", NULL, 'Page ' || g, g + 1 FROM generate_series(1, 300) g");
  const std::string list = "/api/project?projectId=" + std::to_string(projectId_);
  auto identity = call("GET", list, "", as(alice_));
  ASSERT_EQ(identity.status, 200);
  ASSERT_GT(identity.body.size(), 10000u);
  EXPECT_EQ(identity.header("content-encoding"), "");
  EXPECT_NE(identity.header("vary").find("Accept-Encoding"), std::string::npos);
  for (std::string coding : {"gzip", "br"}) {
    Headers headers = as(alice_);
    headers["Accept-Encoding"] = coding;
    auto r = call("GET", list, "", headers);
    EXPECT_EQ(r.header("content-encoding"), coding);
    EXPECT_NE(r.header("vary").find("Accept-Encoding"), std::string::npos);
    EXPECT_LT(r.body.size(), identity.body.size() / 4);
    EXPECT_EQ(docs::test::decodeBody(coding, r.body), identity.body) << coding;
  }
  Headers refused = as(alice_);
  refused["Accept-Encoding"] = "gzip;q=0, br;q=0";
  EXPECT_EQ(call("GET", list, "", refused).body, identity.body);
  // HEAD sends no body, so nothing is encoded.
  Headers head = as(alice_);
  head["Accept-Encoding"] = "gzip";
  EXPECT_EQ(call("HEAD", list, "", head).header("content-encoding"), "");
  // A small answer is sent as it is.
  auto small = call("GET", page(rootPage_), "", head);
  ASSERT_LT(small.body.size(), 1024u);
  EXPECT_EQ(small.header("content-encoding"), "");

  // The Markdown export of a long page.
  docs::ydoc::Json paragraphs = docs::ydoc::Json::array();
  for (int i = 0; i < 60; ++i)
    paragraphs.push_back(
        {{"type", "paragraph"},
         {"content", {{{"type", "text"}, {"text", "Paragraph " + std::to_string(i) + " of the guide."}}}}});
  ASSERT_EQ(call("PUT", page(rootPage_) + "/content",
                 json{{"content_bytea", yjsDocument({{"type", "doc"}, {"content", paragraphs}})}}, as(alice_))
                .status,
            200);
  auto md = call("GET", page(rootPage_) + "/export?format=md", "");
  ASSERT_GT(md.body.size(), 1024u);
  auto mdGzip = call("GET", page(rootPage_) + "/export?format=md", "", Headers{{"Accept-Encoding", "gzip"}});
  EXPECT_EQ(mdGzip.header("content-encoding"), "gzip");
  EXPECT_EQ(mdGzip.header("content-type"), "text/markdown; charset=utf-8");
  EXPECT_EQ(docs::test::gunzip(mdGzip.body), md.body);
}
