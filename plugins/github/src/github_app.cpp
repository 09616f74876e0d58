#include "github_app.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cctype>
#include <ctime>
#include <memory>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <docs/codec/codec.hpp>
#include <docs/support/http_client.hpp>

namespace docs_github {

namespace {

std::int64_t nowSeconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

std::vector<std::pair<std::string, std::string>> appHeaders(const std::string& jwt) {
  return {{"Authorization", "Bearer " + jwt},
          {"Accept", "application/vnd.github+json"},
          {"X-GitHub-Api-Version", "2022-11-28"}};
}

// An installation token goes as "token", the app's JWT as "Bearer"; GitHub takes both.
std::vector<std::pair<std::string, std::string>> tokenHeaders(const std::string& token) {
  return {{"Authorization", "token " + token},
          {"Accept", "application/vnd.github+json"},
          {"X-GitHub-Api-Version", "2022-11-28"}};
}

}  // namespace

std::string appJwt(const std::string& appId, const std::string& privateKeyPem, std::int64_t now) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(privateKeyPem.data(), static_cast<int>(privateKeyPem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr),
                                                          EVP_PKEY_free);
  if (!key || EVP_PKEY_base_id(key.get()) != EVP_PKEY_RSA)
    throw std::runtime_error("github.private_key_file holds no RSA private key");
  std::string header = docs::codec::base64UrlEncode(R"({"alg":"RS256","typ":"JWT"})");
  // GitHub wants iss as the app id (a number or its string); a string works for both.
  std::string payload =
      docs::codec::base64UrlEncode(nlohmann::json{{"iat", now - 60}, {"exp", now + 540}, {"iss", appId}}.dump());
  std::string signingInput = header + "." + payload;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::size_t length = 0;
  if (EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(context.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(signingInput.data()),
                     signingInput.size()) != 1)
    throw std::runtime_error("signing the app JWT failed");
  std::string signature(length, '\0');
  if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(signingInput.data()), signingInput.size()) != 1)
    throw std::runtime_error("signing the app JWT failed");
  signature.resize(length);
  return signingInput + "." + docs::codec::base64UrlEncode(signature);
}

std::int64_t parseGithubTime(const std::string& text) {
  std::tm tm{};
  if (text.size() < 20 || !strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return -1;
  return static_cast<std::int64_t>(timegm(&tm));
}

bool validGithubLogin(std::string_view login) {
  if (login.empty() || login.size() > 39 || login.front() == '-' || login.back() == '-') return false;
  for (std::size_t i = 0; i < login.size(); ++i) {
    char c = login[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && !(c == '-' && login[i - 1] != '-')) return false;
  }
  return true;
}

std::int64_t GithubApp::installationFor(std::string_view owner, std::string_view repo) {
  if (!configured()) return 0;
  docs::support::HttpCall call;
  call.url = settings_.apiUrl + "/repos/" + std::string(owner) + "/" + std::string(repo) + "/installation";
  call.headers = appHeaders(appJwt(settings_.appId, settings_.privateKeyPem, nowSeconds()));
  auto reply = docs::support::httpCall(call);
  if (reply.status == 404) return 0;
  if (reply.status != 200)
    throw std::runtime_error("GitHub answered " + std::to_string(reply.status) + " for the installation of " +
                             std::string(owner) + "/" + std::string(repo));
  auto json = nlohmann::json::parse(reply.body, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("id") || !json["id"].is_number_integer())
    throw std::runtime_error("GitHub's installation answer has no id");
  return json["id"].get<std::int64_t>();
}

std::int64_t GithubApp::installationReadableBy(std::string_view owner, std::string_view repo,
                                               const docs::Principal& caller) {
  if (!configured() || caller.anonymous()) return 0;
  std::int64_t installation = installationFor(owner, repo);
  if (installation <= 0) return 0;
  auto token = repositoryToken(installation, owner, repo);
  if (!token) throw std::runtime_error("GitHub gave no token for " + std::string(owner) + "/" + std::string(repo));
  docs::support::HttpCall call;
  call.url = settings_.apiUrl + "/repos/" + std::string(owner) + "/" + std::string(repo);
  call.headers = tokenHeaders(*token);
  auto reply = docs::support::httpCall(call);
  if (reply.status == 404) return 0;
  if (reply.status != 200)
    throw std::runtime_error("GitHub answered " + std::to_string(reply.status) + " for " + std::string(owner) + "/" +
                             std::string(repo));
  auto json = nlohmann::json::parse(reply.body, nullptr, false);
  // Anything but an explicit "private": false counts as private (internal repositories too).
  bool isPublic = json.is_object() && json.contains("private") && json["private"].is_boolean() &&
                  !json["private"].get<bool>() && json.value("visibility", "public") == "public";
  if (isPublic) return installation;
  auto account = accountOf_ ? accountOf_(caller) : std::nullopt;
  if (!account || !collaboratorCanRead(owner, repo, *token, *account)) return 0;
  return installation;
}

bool GithubApp::collaboratorCanRead(std::string_view owner, std::string_view repo, const std::string& token,
                                    const docs::LinkedAccounts::Account& account) {
  if (!validGithubLogin(account.login) || account.accountId.empty()) return false;
  docs::support::HttpCall call;
  call.url = settings_.apiUrl + "/repos/" + std::string(owner) + "/" + std::string(repo) + "/collaborators/" +
             account.login + "/permission";
  call.headers = tokenHeaders(token);
  auto reply = docs::support::httpCall(call);
  if (reply.status == 404) return false;  // no such user any more
  if (reply.status != 200)
    throw std::runtime_error("GitHub answered " + std::to_string(reply.status) + " for a collaborator of " +
                             std::string(owner) + "/" + std::string(repo));
  auto json = nlohmann::json::parse(reply.body, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("user") || !json["user"].is_object()) return false;
  // The login was the person's when they signed in; someone else may hold it now.
  const auto& user = json["user"];
  std::string id =
      user.contains("id") && user["id"].is_number_integer() ? std::to_string(user["id"].get<std::int64_t>()) : "";
  if (id != account.accountId) return false;
  static const std::set<std::string> reading = {"admin", "maintain", "write", "triage", "read"};
  return json.contains("permission") && json["permission"].is_string() &&
         reading.count(json["permission"].get<std::string>());
}

std::optional<std::string> GithubApp::repositoryToken(std::int64_t installationId, std::string_view owner,
                                                      std::string_view repo) {
  if (!configured() || installationId <= 0) return std::nullopt;
  std::string key = std::to_string(installationId) + " " + std::string(owner) + "/" + std::string(repo);
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::int64_t now = nowSeconds();
  {
    std::lock_guard lock(mutex_);
    auto found = tokens_.find(key);
    if (found != tokens_.end() && found->second.expiresAt - 300 > now) return found->second.value;
  }
  docs::support::HttpCall call;
  call.method = "POST";
  call.url = settings_.apiUrl + "/app/installations/" + std::to_string(installationId) + "/access_tokens";
  call.headers = appHeaders(appJwt(settings_.appId, settings_.privateKeyPem, now));
  call.headers.emplace_back("Content-Type", "application/json");
  // One repository, read only: a leaked token reads this code and nothing else.
  call.body = nlohmann::json{{"repositories", {std::string(repo)}},
                             {"permissions", {{"contents", "read"}, {"metadata", "read"}}}}
                  .dump();
  auto reply = docs::support::httpCall(call);
  if (reply.status != 201 && reply.status != 200) return std::nullopt;
  auto json = nlohmann::json::parse(reply.body, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("token") || !json["token"].is_string())
    return std::nullopt;
  Token token{json["token"].get<std::string>(), now + 3600};
  if (json.contains("expires_at") && json["expires_at"].is_string())
    if (auto at = parseGithubTime(json["expires_at"].get<std::string>()); at > 0) token.expiresAt = at;
  std::lock_guard lock(mutex_);
  tokens_[key] = token;
  return token.value;
}

}  // namespace docs_github
