#pragma once
// A local stand-in for GitHub's OAuth endpoints and REST API, for sign-in tests:
//   POST /login/oauth/access_token   (form: client_id, client_secret, code, redirect_uri)
//   GET  /api/user, /api/user/emails (Authorization: Bearer <token>)
// Use http://127.0.0.1:<port> as github.url and http://127.0.0.1:<port>/api as github.api_url.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace Poco::Net {
class HTTPServer;
}

namespace docs::test {

class FakeGithub {
 public:
  FakeGithub(std::string clientId, std::string clientSecret);
  ~FakeGithub();
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string apiUrl() const { return url() + "/api"; }

  // A code GitHub would hand the browser after it approved the app for this user.
  void addAuthorization(const std::string& code, nlohmann::json user, nlohmann::json emails);
  // The form fields of every token exchange, in order.
  std::vector<std::map<std::string, std::string>> exchanges();

  struct State;

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  int port_ = 0;
};

}  // namespace docs::test
