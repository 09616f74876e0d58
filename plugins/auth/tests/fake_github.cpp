#include "fake_github.hpp"

#include <Poco/Net/HTMLForm.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>

namespace docs::test {

struct FakeGithub::State {
  std::string clientId;
  std::string clientSecret;
  std::mutex mutex;
  std::map<std::string, std::pair<nlohmann::json, nlohmann::json>> byCode;  // code -> (user, emails)
  std::map<std::string, std::string> codeByToken;
  std::vector<std::map<std::string, std::string>> exchanges;
};

namespace {

class Handler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(std::shared_ptr<FakeGithub::State> state) : state_(std::move(state)) {}

  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    std::string path = request.getURI().substr(0, request.getURI().find('?'));
    nlohmann::json body;
    int status = 200;
    std::lock_guard lock(state_->mutex);
    if (path == "/login/oauth/access_token" && request.getMethod() == "POST") {
      Poco::Net::HTMLForm form(request, request.stream());
      std::map<std::string, std::string> fields;
      for (const auto& [name, value] : form) fields[name] = value;
      state_->exchanges.push_back(fields);
      auto found = state_->byCode.find(fields["code"]);
      // Like GitHub: a refused exchange is still a 200, with an "error" field.
      if (fields["client_id"] != state_->clientId || fields["client_secret"] != state_->clientSecret) {
        body = {{"error", "incorrect_client_credentials"}};
      } else if (found == state_->byCode.end()) {
        body = {{"error", "bad_verification_code"}};
      } else {
        std::string token = "gho_" + fields["code"];
        state_->codeByToken[token] = fields["code"];
        body = {{"access_token", token}, {"token_type", "bearer"}, {"scope", "read:user,user:email"}};
      }
    } else if (path == "/api/user" || path == "/api/user/emails") {
      std::string authorization = request.get("Authorization", "");
      std::string token = authorization.rfind("Bearer ", 0) == 0 ? authorization.substr(7) : "";
      auto code = state_->codeByToken.find(token);
      if (code == state_->codeByToken.end() || !state_->byCode.count(code->second)) {
        status = 401;
        body = {{"message", "Bad credentials"}};
      } else {
        const auto& [user, emails] = state_->byCode[code->second];
        body = path == "/api/user" ? user : emails;
      }
    } else {
      status = 404;
      body = {{"message", "Not Found"}};
    }
    response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
    response.setContentType("application/json");
    std::string text = body.dump();
    response.setContentLength(static_cast<std::streamsize>(text.size()));
    response.send() << text;
  }

 private:
  std::shared_ptr<FakeGithub::State> state_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::shared_ptr<FakeGithub::State> state) : state_(std::move(state)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new Handler(state_);
  }

 private:
  std::shared_ptr<FakeGithub::State> state_;
};

}  // namespace

FakeGithub::FakeGithub(std::string clientId, std::string clientSecret) : state_(std::make_shared<State>()) {
  state_->clientId = std::move(clientId);
  state_->clientSecret = std::move(clientSecret);
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(state_), socket, new Poco::Net::HTTPServerParams);
  server_->start();
}

FakeGithub::~FakeGithub() { server_->stopAll(true); }

void FakeGithub::addAuthorization(const std::string& code, nlohmann::json user, nlohmann::json emails) {
  std::lock_guard lock(state_->mutex);
  state_->byCode[code] = {std::move(user), std::move(emails)};
}

std::vector<std::map<std::string, std::string>> FakeGithub::exchanges() {
  std::lock_guard lock(state_->mutex);
  return state_->exchanges;
}

}  // namespace docs::test
