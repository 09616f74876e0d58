#include "git_bomb.hpp"

#include <stdexcept>

#include "test_support.hpp"

namespace docs::test {

std::string commitGitBomb(const std::string& gitDir, const GitBomb& bomb) {
  // runCommand quotes each argument in single quotes: the script uses none.
  std::string width = std::to_string(bomb.width - 1);
  std::string blob = bomb.blobBytes ? "head -c " + std::to_string(bomb.blobBytes) + " /dev/zero" : "printf \"x\\n\"";
  std::string script =
      "set -e\n"
      "b=$(" +
      blob +
      " | git hash-object -w --stdin)\n"
      "t=$(for i in $(seq 0 " +
      width +
      "); do printf \"100644 blob %s\\tf%s\\n\" \"$b\" \"$i\"; done | git mktree)\n"
      "for l in $(seq 1 " +
      std::to_string(bomb.levels) +
      "); do\n"
      "  t=$(for i in $(seq 0 " +
      width +
      "); do printf \"040000 tree %s\\td%s\\n\" \"$t\" \"$i\"; done | git mktree)\n"
      "done\n"
      "p=$(git rev-parse -q --verify refs/heads/main || true)\n"
      "c=$(git commit-tree \"$t\" -m bomb ${p:+-p \"$p\"})\n"
      "git update-ref refs/heads/main \"$c\"\n"
      "echo \"$c\"\n";
  auto [status, output] = runCommand({"sh", "-c", script}, {{"GIT_DIR", gitDir},
                                                            {"GIT_AUTHOR_NAME", "T"},
                                                            {"GIT_AUTHOR_EMAIL", "t@e"},
                                                            {"GIT_COMMITTER_NAME", "T"},
                                                            {"GIT_COMMITTER_EMAIL", "t@e"},
                                                            {"HOME", "/nonexistent"}});
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  if (status != 0 || output.size() < 40) throw std::runtime_error("building the git bomb failed: " + output);
  return output.substr(output.size() - 40);
}

}  // namespace docs::test
