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

#include <ctime>
#include <regex>

#include <nlohmann/json.hpp>

namespace docs::test {

struct FakeGithubApi::State {
  std::string appId;
  std::string pem;
  std::mutex mutex;
  std::map<std::string, std::pair<long long, std::string>> installations;  // full name -> (id, token)
  int tokenRequests = 0;
  int rejectedJwts = 0;
};

namespace {

std::string fromBase64Url(std::string text) {
  for (auto& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (text.size() % 4) text += '=';
  std::string out(text.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                          static_cast<int>(text.size()));
  if (n < 0) return "";
  out.resize(static_cast<std::size_t>(n) - (text.ends_with("==") ? 2 : text.ends_with("=") ? 1 : 0));
  return out;
}

bool validJwt(const FakeGithubApi::State& state, const std::string& authorization) {
  if (authorization.rfind("Bearer ", 0) != 0) return false;
  std::string jwt = authorization.substr(7);
  auto first = jwt.find('.'), second = jwt.rfind('.');
  if (first == std::string::npos || first == second) return false;
  auto payload = nlohmann::json::parse(fromBase64Url(jwt.substr(first + 1, second - first - 1)), nullptr, false);
  if (payload.is_discarded() || payload.value("iss", "") != state.appId) return false;
  auto now = static_cast<long long>(std::time(nullptr));
  if (payload.value("exp", 0LL) < now || payload.value("iat", now + 100) > now) return false;
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(state.pem.data(), static_cast<int>(state.pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), EVP_PKEY_free);
  std::string signature = fromBase64Url(jwt.substr(second + 1));
  std::string input = jwt.substr(0, second);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  return EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()) == 1 &&
         EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

class Handler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(std::shared_ptr<FakeGithubApi::State> state) : state_(std::move(state)) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) override {
    static const std::regex installation("^/api/repos/([^/]+)/([^/]+)/installation$");
    static const std::regex tokens("^/api/app/installations/([0-9]+)/access_tokens$");
    std::string path = request.getURI().substr(0, request.getURI().find('?'));
    std::smatch match;
    int status = 404;
    nlohmann::json body = {{"message", "Not Found"}};
    std::lock_guard lock(state_->mutex);
    if (!validJwt(*state_, request.get("Authorization", ""))) {
      ++state_->rejectedJwts;
      status = 401;
      body = {{"message", "A JSON web token could not be decoded"}};
    } else if (request.getMethod() == "GET" && std::regex_match(path, match, installation)) {
      auto found = state_->installations.find(match[1].str() + "/" + match[2].str());
      if (found != state_->installations.end()) {
        status = 200;
        body = {{"id", found->second.first}, {"app_id", std::stoll(state_->appId)}};
      }
    } else if (request.getMethod() == "POST" && std::regex_match(path, match, tokens)) {
      for (const auto& [name, entry] : state_->installations)
        if (std::to_string(entry.first) == match[1].str()) {
          ++state_->tokenRequests;
          status = 201;
          body = {{"token", entry.second}, {"expires_at", "2099-01-01T00:00:00Z"}};
          break;
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
  Poco::Net::HTTPRequestHandler* createRequestHandler(const Poco::Net::HTTPServerRequest&) override { return new Handler(state_); }

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

void FakeGithubApi::install(const std::string& fullName, long long installationId, const std::string& token) {
  std::lock_guard lock(state_->mutex);
  state_->installations[fullName] = {installationId, token};
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
