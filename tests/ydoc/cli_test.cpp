#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "docs/ydoc/cli.hpp"
#include "test_util.hpp"

namespace docs::ydoc {
namespace {

const char* kParagraphHi = "0103010007010764656661756c74030970617261677261706807000100060400010102486900";

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

CliResult run(const std::vector<std::string>& args, const std::string& input = {}) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  const int code = runCli(args, in, out, err);
  return {code, out.str(), err.str()};
}

std::string writeTemp(const std::string& name, const Bytes& bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("ydoc-cli-" + name);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

TEST(Cli, MarkdownFromStdin) {
  const Bytes b = test::fromHex(kParagraphHi);
  const auto r = run({"markdown", "-"}, std::string(b.begin(), b.end()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "Hi\n");
}

TEST(Cli, StateVectorAndBase64) {
  const auto r = run({"--base64", "state-vector", "-"}, "AQMBAAcBB2RlZmF1bHQDCXBhcmFncmFwaAcAAQAGBAABAQJIaQA=");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"1\":4}\n");
}

TEST(Cli, MergeDiffAndJson) {
  const std::string a = writeTemp("a.bin", test::fromHex(kParagraphHi));
  const std::string b = writeTemp("b.bin", test::fromHex("01010200840103012100"));
  const auto merged = run({"merge", a, b});
  ASSERT_EQ(merged.code, 0) << merged.err;
  const std::string m = writeTemp("m.bin", Bytes(merged.out.begin(), merged.out.end()));
  const auto json = run({"text", m});
  EXPECT_EQ(json.out, "Hi!\n");
  const std::string sv = writeTemp("sv.bin", test::fromHex("010104"));
  const auto diff = run({"diff", m, sv});
  EXPECT_EQ(test::toHex(Bytes(diff.out.begin(), diff.out.end())), "01010200840103012100");
}

TEST(Cli, FromJson) {
  const auto path = std::filesystem::temp_directory_path() / "ydoc-cli-pm.json";
  std::ofstream(path) << R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"x"}]}]})";
  const auto r = run({"--client-id", "9", "--base64", "from-json", path.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto back = run({"--base64", "html", "-"}, r.out);
  EXPECT_EQ(back.out, "<p>x</p>\n");
}

TEST(Cli, ErrorsAreReported) {
  EXPECT_EQ(run({}).code, 2);
  EXPECT_EQ(run({"frobnicate", "x"}).code, 1);
  const auto bad = run({"json", "-"}, std::string("\x01\x05", 2));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("ydoc:"), std::string::npos);
}

}  // namespace
}  // namespace docs::ydoc
