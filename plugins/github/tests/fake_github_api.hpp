#pragma once
// A local stand-in for the GitHub REST API as a GitHub App uses it:
//   GET  /api/repos/{owner}/{repo}/installation       (app JWT) -> {"id"} or 404
//   POST /api/app/installations/{id}/access_tokens    (app JWT) -> 201 {"token","expires_at"}
// The app JWT must verify with the app's public key and name the app id as iss.
// Use http://127.0.0.1:<port>/api as github.api_url.

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace Poco::Net {
class HTTPServer;
}

namespace docs::test {

class FakeGithubApi {
 public:
  FakeGithubApi(std::string appId, std::string privateKeyPem);
  ~FakeGithubApi();
  std::string apiUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api"; }
  // The installation that can read owner/repo, and the token it hands out.
  void install(const std::string& fullName, long long installationId, const std::string& token);
  int tokenRequests();
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
