#include "fake_github_api.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <docs/codec/codec.hpp>

#include <ctime>
#include <iterator>
#include <regex>

#include <nlohmann/json.hpp>

namespace docs::test {

struct FakeGithubApi::State {
  std::string appId;
  std::string pem;
  std::mutex mutex;
  struct Repository {
    long long installation = 0;
    std::string token;
    bool isPrivate = true;
  };
  std::map<std::string, Repository> repositories;                         // full name -> installation
  std::map<std::string, long long> users;                                 // login -> id
  std::map<std::string, std::map<std::string, std::string>> permissions;  // full name -> login -> permission
  int tokenRequests = 0;
  int rejectedJwts = 0;
  std::vector<std::string> tokenBodies;
  std::map<std::string, int> repositoryCalls;
};

namespace {

std::string fromBase64Url(const std::string& text) { return docs::codec::base64UrlDecode(text).value_or(""); }

bool validJwt(const FakeGithubApi::State& state, const std::string& authorization) {
  if (authorization.rfind("Bearer ", 0) != 0) return false;
  std::string jwt = authorization.substr(7);
  auto first = jwt.find('.'), second = jwt.rfind('.');
  if (first == std::string::npos || first == second) return false;
  auto payload = nlohmann::json::parse(fromBase64Url(jwt.substr(first + 1, second - first - 1)), nullptr, false);
  if (payload.is_discarded() || payload.value("iss", "") != state.appId) return false;
  auto now = static_cast<long long>(std::time(nullptr));
  if (payload.value("exp", 0LL) < now || payload.value("iat", now + 100) > now) return false;
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(state.pem.data(), static_cast<int>(state.pem.size())),
                                                BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr),
                                                          EVP_PKEY_free);
  std::string signature = fromBase64Url(jwt.substr(second + 1));
  std::string input = jwt.substr(0, second);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  return EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
         EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

// Tokens are "<repository token>" for one repository; a token asked for the whole
// installation is "<installation>-all" and reads every repository of it.
bool tokenReads(const FakeGithubApi::State& state, const std::string& authorization, const std::string& fullName) {
  auto found = state.repositories.find(fullName);
  if (found == state.repositories.end() || authorization.rfind("token ", 0) != 0) return false;
  std::string token = authorization.substr(6);
  return token == found->second.token || token == std::to_string(found->second.installation) + "-all";
}

class Handler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(std::shared_ptr<FakeGithubApi::State> state) : state_(std::move(state)) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    static const std::regex installation("^/api/repos/([^/]+)/([^/]+)/installation$");
    static const std::regex tokens("^/api/app/installations/([0-9]+)/access_tokens$");
    static const std::regex repository("^/api/repos/([^/]+)/([^/]+)$");
    static const std::regex permission("^/api/repos/([^/]+)/([^/]+)/collaborators/([^/]+)/permission$");
    std::string path = request.getURI().substr(0, request.getURI().find('?'));
    std::string requestBody(std::istreambuf_iterator<char>(request.stream()), {});
    std::smatch match;
    int status = 404;
    nlohmann::json body = {{"message", "Not Found"}};
    std::lock_guard lock(state_->mutex);
    std::string authorization = request.get("Authorization", "");
    if (request.getMethod() == "GET" && std::regex_match(path, match, permission)) {
      std::string fullName = match[1].str() + "/" + match[2].str();
      ++state_->repositoryCalls[fullName];
      auto user = state_->users.find(match[3].str());
      if (!tokenReads(*state_, authorization, fullName)) status = 404;
      else if (user == state_->users.end()) body = {{"message", match[3].str() + " is not a user"}};
      else {
        auto& granted = state_->permissions[fullName];
        auto level = granted.find(user->first);
        status = 200;
        body = {{"permission", level == granted.end() ? "none" : level->second},
                {"user", {{"login", user->first}, {"id", user->second}}}};
      }
    } else if (request.getMethod() == "GET" && std::regex_match(path, match, repository)) {
      std::string fullName = match[1].str() + "/" + match[2].str();
      ++state_->repositoryCalls[fullName];
      if (tokenReads(*state_, authorization, fullName)) {
        bool isPrivate = state_->repositories[fullName].isPrivate;
        status = 200;
        body = {{"full_name", fullName}, {"private", isPrivate}, {"visibility", isPrivate ? "private" : "public"}};
      }
    } else if (!validJwt(*state_, authorization)) {
      ++state_->rejectedJwts;
      status = 401;
      body = {{"message", "A JSON web token could not be decoded"}};
    } else if (request.getMethod() == "GET" && std::regex_match(path, match, installation)) {
      auto found = state_->repositories.find(match[1].str() + "/" + match[2].str());
      if (found != state_->repositories.end()) {
        status = 200;
        body = {{"id", found->second.installation}, {"app_id", std::stoll(state_->appId)}};
      }
    } else if (request.getMethod() == "POST" && std::regex_match(path, match, tokens)) {
      state_->tokenBodies.push_back(requestBody);
      auto asked = nlohmann::json::parse(requestBody.empty() ? "{}" : requestBody, nullptr, false);
      long long id = std::stoll(match[1].str());
      std::string token;
      bool known = false;
      for (const auto& [name, entry] : state_->repositories) known = known || entry.installation == id;
      if (known && asked.is_object() && asked.contains("repositories") && asked["repositories"].is_array() &&
          asked["repositories"].size() == 1 && asked["repositories"][0].is_string()) {
        for (const auto& [name, entry] : state_->repositories)
          if (entry.installation == id &&
              name.substr(name.find('/') + 1) == asked["repositories"][0].get<std::string>())
            token = entry.token;
        if (token.empty())
          status = 422,
          body = {{"message", "There is at least one repository that does not exist or is not accessible"}};
      } else if (known && asked.is_object() && !asked.contains("repositories")) {
        token = std::to_string(id) + "-all";
      }
      if (!token.empty()) {
        ++state_->tokenRequests;
        status = 201;
        body = {{"token", token}, {"expires_at", "2099-01-01T00:00:00Z"}};
      }
    }
    std::string text = body.dump();
    response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
    response.setContentType("application/json");
    response.setContentLength(static_cast<std::streamsize>(text.size()));
    response.send() << text;
  }

 private:
  std::shared_ptr<FakeGithubApi::State> state_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(std::shared_ptr<FakeGithubApi::State> state) : state_(std::move(state)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override {
    return new Handler(state_);
  }

 private:
  std::shared_ptr<FakeGithubApi::State> state_;
};

}  // namespace

FakeGithubApi::FakeGithubApi(std::string appId, std::string privateKeyPem) : state_(std::make_shared<State>()) {
  state_->appId = std::move(appId);
  state_->pem = std::move(privateKeyPem);
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  port_ = socket.address().port();
  server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(state_), socket, new Poco::Net::HTTPServerParams);
  server_->start();
}

FakeGithubApi::~FakeGithubApi() { server_->stopAll(true); }

void FakeGithubApi::install(const std::string& fullName, long long installationId, const std::string& token,
                            bool isPrivate) {
  std::lock_guard lock(state_->mutex);
  state_->repositories[fullName] = {installationId, token, isPrivate};
}

void FakeGithubApi::addUser(const std::string& login, long long id) {
  std::lock_guard lock(state_->mutex);
  state_->users[login] = id;
}

void FakeGithubApi::addCollaborator(const std::string& fullName, const std::string& login,
                                    const std::string& permission) {
  std::lock_guard lock(state_->mutex);
  state_->permissions[fullName][login] = permission;
}

std::vector<std::string> FakeGithubApi::tokenRequestBodies() {
  std::lock_guard lock(state_->mutex);
  return state_->tokenBodies;
}

int FakeGithubApi::repositoryCalls(const std::string& fullName) {
  std::lock_guard lock(state_->mutex);
  return state_->repositoryCalls[fullName];
}

int FakeGithubApi::tokenRequests() {
  std::lock_guard lock(state_->mutex);
  return state_->tokenRequests;
}

int FakeGithubApi::rejectedJwts() {
  std::lock_guard lock(state_->mutex);
  return state_->rejectedJwts;
}

std::string newRsaPrivateKeyPem() {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_RSA_gen(2048), EVP_PKEY_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace docs::test
