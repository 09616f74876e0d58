#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "http/static_files.hpp"

namespace fs = std::filesystem;

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("static-" + std::to_string(::getpid()));
    fs::create_directories(base_ / "dist" / "assets");
    std::ofstream(base_ / "dist" / "index.html") << "<html>app</html>";
    std::ofstream(base_ / "dist" / "assets" / "app-123.js") << "console.log(1)";
    std::ofstream(base_ / "dist" / ".env") << "SECRET=1";
    std::ofstream(base_ / "secret.txt") << "outside";
    fs::create_symlink(base_ / "secret.txt", base_ / "dist" / "escape.txt");
  }
  void TearDown() override { fs::remove_all(base_); }
  docs::Response serve(const std::string& path) {
    docs::core::StaticFiles files((base_ / "dist").string());
    docs::Response response;
    EXPECT_TRUE(files.serve(path, "rid", response));
    return response;
  }
  fs::path base_;
};

TEST_F(StaticFilesTest, ServesFilesWithTypesAndCaching) {
  auto js = serve("/assets/app-123.js");
  ASSERT_TRUE(js.filePath());
  EXPECT_EQ(js.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(js.header("Cache-Control")->find("immutable"), std::string::npos);
}

TEST_F(StaticFilesTest, ClientRoutesFallBackToIndex) {
  for (auto path : {"/", "/projects", "/projects/3/17", "/github/owner/repo"}) {
    auto r = serve(path);
    ASSERT_TRUE(r.filePath()) << path;
    EXPECT_EQ(fs::path(*r.filePath()).filename(), "index.html") << path;
  }
}

TEST_F(StaticFilesTest, MissingAssetsAre404NotIndex) { EXPECT_EQ(serve("/assets/missing.js").status(), 404); }

TEST_F(StaticFilesTest, TraversalNeverLeavesTheRoot) {
  for (auto path : {"/../secret.txt", "/%2e%2e/secret.txt", "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
                    "/assets/..%2F..%2Fsecret.txt", "/escape.txt", "/.env", "/%2e%2e%5csecret.txt"}) {
    auto r = serve(path);
    EXPECT_FALSE(r.filePath() && r.filePath()->find("secret") != std::string::npos) << path;
    EXPECT_TRUE(r.status() == 404 || r.status() == 400) << path << " -> " << r.status();
  }
}

TEST_F(StaticFilesTest, MissingWebRootServesAPlaceholder) {
  docs::core::StaticFiles files((base_ / "nope").string());
  docs::Response response;
  files.serve("/projects", "rid", response);
  EXPECT_EQ(response.status(), 200);
  EXPECT_NE(response.body().find("docsd is running"), std::string::npos);
}

class PrecompressedFilesTest : public StaticFilesTest {
 protected:
  void SetUp() override {
    StaticFilesTest::SetUp();
    std::ofstream(base_ / "dist" / "assets" / "app-123.js.br") << "BR";
    std::ofstream(base_ / "dist" / "assets" / "app-123.js.gz") << "GZ";
  }
  docs::Response serveWith(const std::string& path, const docs::core::StaticConditions& conditions) {
    docs::core::StaticFiles files((base_ / "dist").string());
    docs::Response response;
    EXPECT_TRUE(files.serve(path, "rid", response, conditions));
    return response;
  }
};

TEST_F(PrecompressedFilesTest, ServesTheCodingTheClientPrefers) {
  auto br = serveWith("/assets/app-123.js", {"gzip, deflate, br", "", "", ""});
  ASSERT_TRUE(br.filePath());
  EXPECT_EQ(fs::path(*br.filePath()).filename(), "app-123.js.br");
  EXPECT_EQ(br.header("Content-Encoding"), "br");
  EXPECT_EQ(br.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(br.header("Vary"), "Accept-Encoding");
  auto gz = serveWith("/assets/app-123.js", {"gzip, br;q=0", "", "", ""});
  EXPECT_EQ(fs::path(*gz.filePath()).filename(), "app-123.js.gz");
  EXPECT_EQ(gz.header("Content-Encoding"), "gzip");
  auto plain = serveWith("/assets/app-123.js", {"", "", "", ""});
  EXPECT_EQ(fs::path(*plain.filePath()).filename(), "app-123.js");
  EXPECT_FALSE(plain.header("Content-Encoding"));
  EXPECT_EQ(plain.header("Vary"), "Accept-Encoding");
  // Each form has its own validator.
  EXPECT_NE(br.header("ETag"), gz.header("ETag"));
  EXPECT_NE(br.header("ETag"), plain.header("ETag"));
  EXPECT_NE(gz.header("ETag"), plain.header("ETag"));
}

TEST_F(PrecompressedFilesTest, IfNoneMatchIsPerCoding) {
  auto gz = serveWith("/assets/app-123.js", {"gzip", "", "", ""});
  auto tag = *gz.header("ETag");
  EXPECT_EQ(serveWith("/assets/app-123.js", {"gzip", "", "", tag}).status(), 304);
  auto plain = serveWith("/assets/app-123.js", {"", "", "", tag});
  EXPECT_EQ(plain.status(), 200);
  EXPECT_TRUE(plain.filePath());
}

TEST_F(PrecompressedFilesTest, RangesAreServedFromTheIdentityBytes) {
  auto part = serveWith("/assets/app-123.js", {"gzip, br", "bytes=0-6", "", ""});
  EXPECT_EQ(part.status(), 206);
  EXPECT_EQ(part.body(), "console");
  EXPECT_FALSE(part.header("Content-Encoding"));
  EXPECT_EQ(part.header("Content-Range"), "bytes 0-6/14");
  EXPECT_EQ(serveWith("/assets/app-123.js", {"", "bytes=-3", "", ""}).body(), "(1)");
  EXPECT_EQ(serveWith("/assets/app-123.js", {"", "bytes=8-", "", ""}).body(), "log(1)");
  auto outside = serveWith("/assets/app-123.js", {"", "bytes=14-20", "", ""});
  EXPECT_EQ(outside.status(), 416);
  EXPECT_EQ(outside.header("Content-Range"), "bytes */14");
  // If-Range with another validator asks for the whole, current file.
  auto stale = serveWith("/assets/app-123.js", {"", "bytes=0-6", "\"old\"", ""});
  EXPECT_EQ(stale.status(), 200);
  EXPECT_TRUE(stale.filePath());
}

TEST_F(PrecompressedFilesTest, AStaleSiblingIsNotServed) {
  auto js = base_ / "dist" / "assets" / "app-123.js";
  fs::last_write_time(js, fs::last_write_time(js) + std::chrono::hours(1));
  auto r = serveWith("/assets/app-123.js", {"gzip, br", "", "", ""});
  EXPECT_EQ(fs::path(*r.filePath()).filename(), "app-123.js");
  EXPECT_FALSE(r.header("Content-Encoding"));
}
