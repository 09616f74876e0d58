#include "git_server.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace docs::test {

namespace fs = std::filesystem;

namespace {

std::string makeTempDir(const char* prefix) {
  std::string pattern = (fs::temp_directory_path() / (std::string(prefix) + "XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

const std::map<std::string, std::string> kGitEnv = {
    {"GIT_AUTHOR_NAME", "Test"},    {"GIT_AUTHOR_EMAIL", "test@example.com"},
    {"GIT_COMMITTER_NAME", "Test"}, {"GIT_COMMITTER_EMAIL", "test@example.com"},
    {"GIT_CONFIG_NOSYSTEM", "1"},   {"HOME", "/nonexistent"}};

}  // namespace

GitHttpServer::GitHttpServer(const std::string& token) {
  root_ = makeTempDir("docs-git-root-");
  scratch_ = makeTempDir("docs-git-work-");
  std::string portFile = scratch_ + "/port";
  std::string script = sourceDir() + "/tests/support/git_http_server.py";
  pid_ = fork();
  if (pid_ == 0) {
    std::vector<std::string> args = {"python3", script, "--root", root_, "--port-file", portFile};
    if (!token.empty()) {
      args.push_back("--token");
      args.push_back(token);
    }
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execvp("python3", argv.data());
    _exit(127);
  }
  for (int i = 0; i < 400 && !fs::exists(portFile); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::ifstream in(portFile);
  in >> port_;
  if (port_ <= 0) throw std::runtime_error("the git HTTP server did not start (python3 and git needed)");
}

GitHttpServer::~GitHttpServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  std::error_code ignored;
  fs::remove_all(root_, ignored);
  fs::remove_all(scratch_, ignored);
}

std::string GitHttpServer::git(const std::string& workTree, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", workTree};
  argv.insert(argv.end(), args.begin(), args.end());
  auto [status, output] = runCommand(argv, kGitEnv);
  if (status != 0) throw std::runtime_error("git failed: " + output);
  return output;
}

std::string GitHttpServer::createRepository(const std::string& owner, const std::string& name,
                                            const std::map<std::string, std::string>& files) {
  std::string bare = root_ + "/" + owner + "/" + name;
  fs::create_directories(bare);
  git(bare, {"init", "-q", "--bare", "--initial-branch=main"});
  std::string work = scratch_ + "/" + owner + "--" + name;
  fs::create_directories(work);
  git(work, {"init", "-q", "--initial-branch=main"});
  git(work, {"remote", "add", "origin", bare});
  return commit(owner, name, files, {}, "initial");
}

std::string GitHttpServer::commit(const std::string& owner, const std::string& name,
                                  const std::map<std::string, std::string>& files,
                                  const std::vector<std::string>& deleted, const std::string& message) {
  std::string work = scratch_ + "/" + owner + "--" + name;
  for (const auto& [path, content] : files) {
    fs::path file = fs::path(work) / path;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
  }
  for (const auto& path : deleted) fs::remove(fs::path(work) / path);
  git(work, {"add", "-A"});
  git(work, {"commit", "-q", "--allow-empty", "-m", message});
  git(work, {"push", "-q", "origin", "main"});
  auto head = git(work, {"rev-parse", "HEAD"});
  while (!head.empty() && (head.back() == '\n' || head.back() == '\r')) head.pop_back();
  return head;
}

}  // namespace docs::test
