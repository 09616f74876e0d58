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

TEST_F(StaticFilesTest, MissingAssetsAre404NotIndex) {
  EXPECT_EQ(serve("/assets/missing.js").status(), 404);
}

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
