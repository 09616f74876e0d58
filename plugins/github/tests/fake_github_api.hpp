#pragma once
// A local stand-in for the GitHub REST API as a GitHub App uses it:
//   GET  /api/repos/{owner}/{repo}/installation       (app JWT) -> {"id"} or 404
//   POST /api/app/installations/{id}/access_tokens    (app JWT, body {"repositories":[name],
//        "permissions":{...}}) -> 201 {"token","expires_at"}; the token reads only the
//        repositories named (all of the installation's when none are)
//   GET  /api/repos/{owner}/{repo}                    (token) -> {"private", "visibility"}
//   GET  /api/repos/{owner}/{repo}/collaborators/{login}/permission
//                                                      (token) -> {"permission", "user"}
// The app JWT must verify with the app's public key and name the app id as iss.
// Use http://127.0.0.1:<port>/api as github.api_url.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Poco::Net {
class HTTPServer;
}

namespace docs::test {

class FakeGithubApi {
 public:
  FakeGithubApi(std::string appId, std::string privateKeyPem);
  ~FakeGithubApi();
  std::string apiUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api"; }
  // The installation that can read owner/repo, and the token it hands out for it.
  void install(const std::string& fullName, long long installationId, const std::string& token, bool isPrivate = true);
  // A GitHub user, and their permission on a repository ("read", "write", "admin", "none").
  void addUser(const std::string& login, long long id);
  void addCollaborator(const std::string& fullName, const std::string& login, const std::string& permission);
  int tokenRequests();
  // The JSON body of every token request, in order.
  std::vector<std::string> tokenRequestBodies();
  // Calls answered about a repository (GET /repos/..., permission checks) by full name.
  int repositoryCalls(const std::string& fullName);
  int rejectedJwts();

  struct State;

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  int port_ = 0;
};

// A new RSA private key in PEM, for an app.
std::string newRsaPrivateKeyPem();

}  // namespace docs::test
