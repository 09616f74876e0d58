#pragma once
// A git smart-HTTP server for tests (tests/support/git_http_server.py around
// `git http-backend`) and helpers that build and change its repositories with git.

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

namespace docs::test {

class GitHttpServer {
 public:
  // token: when set, clones must authenticate as x-access-token:<token>.
  explicit GitHttpServer(const std::string& token = "");
  ~GitHttpServer();
  GitHttpServer(const GitHttpServer&) = delete;
  GitHttpServer& operator=(const GitHttpServer&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& root() const { return root_; }

  // Creates bare repository owner/name with these files in one commit on `main`;
  // returns the commit's hash.
  std::string createRepository(const std::string& owner, const std::string& name,
                               const std::map<std::string, std::string>& files);
  // Another commit on main: files to write (content) and to delete (empty optional via
  // the `deleted` list). Returns the new commit's hash.
  std::string commit(const std::string& owner, const std::string& name, const std::map<std::string, std::string>& files,
                     const std::vector<std::string>& deleted = {}, const std::string& message = "change");

 private:
  std::string git(const std::string& workTree, const std::vector<std::string>& args);
  std::string root_;
  std::string scratch_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace docs::test
