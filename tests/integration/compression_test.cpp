// Compressed answers from the real docsd: the web app's precompressed files (made by the
// web build's own script) by Accept-Encoding, and route answers compressed on the fly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "decode.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;

namespace {

class Compression : public ::testing::Test {
 protected:
  void SetUp() override {
    dist_ = fs::path(web_.path()) / "dist";
    fs::create_directories(dist_ / "assets");
    // Big enough to be precompressed (1 KiB or more), varied enough to be worth it.
    for (int i = 0; i < 400; ++i)
      script_ += "export const value" + std::to_string(i) + " = " + std::to_string(i * 7) + ";\n";
    std::ofstream(dist_ / "assets" / "app-1.js") << script_;
    std::ofstream(dist_ / "assets" / "tiny-1.js") << "console.log(1)";
    std::ofstream(dist_ / "index.html") << "<!doctype html><div id=root></div>" << std::string(2000, ' ');
    auto [code, output] =
        docs::test::runCommand({"node", docs::test::sourceDir() + "/web/scripts/precompress.mjs", dist_.string()});
    ASSERT_EQ(code, 0) << output;
    ASSERT_TRUE(fs::exists(dist_ / "assets" / "app-1.js.br"));
    ASSERT_TRUE(fs::exists(dist_ / "assets" / "app-1.js.gz"));
    ASSERT_FALSE(fs::exists(dist_ / "assets" / "tiny-1.js.gz"));
  }
  void start(std::map<std::string, std::string> env = {}) {
    env.emplace("DOCS_SERVER_WEB_ROOT", dist_.string());
    Docsd::Options options;
    options.env = std::move(env);
    options.databaseUrl = database_.url();
    docsd_ = std::make_unique<Docsd>(std::move(options));
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  HttpResponse get(const std::string& path, const std::map<std::string, std::string>& headers = {}) {
    return httpRequest(docsd_->port(), "GET", path, "", headers);
  }

  docs::test::TestDatabase database_;
  docs::test::TempDir web_;
  fs::path dist_;
  std::string script_;
  std::unique_ptr<Docsd> docsd_;
};

}  // namespace

TEST_F(Compression, StaticFilesInTheCodingTheClientPrefers) {
  start();
  auto br = get("/assets/app-1.js", {{"Accept-Encoding", "gzip, deflate, br"}});
  ASSERT_EQ(br.status, 200);
  EXPECT_EQ(br.header("content-encoding"), "br");
  EXPECT_EQ(br.header("vary"), "Accept-Encoding");
  EXPECT_EQ(br.header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_LT(br.body.size(), script_.size() / 3);
  EXPECT_EQ(docs::test::unbrotli(br.body), script_);

  auto gz = get("/assets/app-1.js", {{"Accept-Encoding", "gzip"}});
  EXPECT_EQ(gz.header("content-encoding"), "gzip");
  EXPECT_EQ(docs::test::gunzip(gz.body), script_);

  // q=0 refuses a coding; refusing both leaves the identity bytes.
  EXPECT_EQ(get("/assets/app-1.js", {{"Accept-Encoding", "br;q=0, gzip"}}).header("content-encoding"), "gzip");
  auto plain = get("/assets/app-1.js", {{"Accept-Encoding", "br;q=0, gzip;q=0"}});
  EXPECT_EQ(plain.header("content-encoding"), "");
  EXPECT_EQ(plain.body, script_);
  EXPECT_EQ(plain.header("vary"), "Accept-Encoding");
  EXPECT_EQ(get("/assets/app-1.js").body, script_);

  // One validator per form, and each revalidates only itself.
  std::set<std::string> tags{br.header("etag"), gz.header("etag"), plain.header("etag")};
  EXPECT_EQ(tags.size(), 3u);
  EXPECT_EQ(get("/assets/app-1.js", {{"Accept-Encoding", "br"}, {"If-None-Match", br.header("etag")}}).status, 304);
  auto other = get("/assets/app-1.js", {{"Accept-Encoding", "gzip"}, {"If-None-Match", br.header("etag")}});
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(docs::test::gunzip(other.body), script_);

  // The SPA's page (index.html for a client route) comes compressed too.
  auto page = get("/projects/1", {{"Accept-Encoding", "br"}});
  EXPECT_EQ(page.header("content-encoding"), "br");
  EXPECT_NE(docs::test::unbrotli(page.body).find("id=root"), std::string::npos);
  // A file too small to precompress is sent as it is.
  auto tiny = get("/assets/tiny-1.js", {{"Accept-Encoding", "br, gzip"}});
  EXPECT_EQ(tiny.header("content-encoding"), "");
  EXPECT_EQ(tiny.body, "console.log(1)");
}

TEST_F(Compression, RangesAddressTheIdentityBytes) {
  start();
  auto part = get("/assets/app-1.js", {{"Accept-Encoding", "br, gzip"}, {"Range", "bytes=7-18"}});
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.header("content-encoding"), "");
  EXPECT_EQ(part.body, script_.substr(7, 12));
  EXPECT_EQ(part.header("content-range"), "bytes 7-18/" + std::to_string(script_.size()));
  auto tail = get("/assets/app-1.js", {{"Range", "bytes=-5"}});
  EXPECT_EQ(tail.body, script_.substr(script_.size() - 5));
  auto outside = get("/assets/app-1.js", {{"Range", "bytes=999999-"}});
  EXPECT_EQ(outside.status, 416);
  EXPECT_EQ(outside.header("content-range"), "bytes */" + std::to_string(script_.size()));
}

TEST_F(Compression, SmallRouteAnswersAreSentAsTheyAre) {
  start();
  // /config.json is a route answer under 1 KiB: never compressed.
  auto small = get("/config.json", {{"Accept-Encoding", "gzip, br"}});
  ASSERT_EQ(small.status, 200);
  ASSERT_LT(small.body.size(), 1024u);
  EXPECT_EQ(small.header("content-encoding"), "");
  EXPECT_TRUE(nlohmann::json::parse(small.body, nullptr, false).is_object());
}

TEST_F(Compression, OffByConfiguration) {
  start({{"DOCS_SERVER_COMPRESSION", "false"}});
  auto r = get("/assets/app-1.js", {{"Accept-Encoding", "gzip, br"}});
  EXPECT_EQ(r.header("content-encoding"), "");
  EXPECT_EQ(r.body, script_);
}
