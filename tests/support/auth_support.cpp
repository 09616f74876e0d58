// Signing in from tests through the real email one-time-code flow (no shortcuts into the
// database): request a code, read the message the auth plugin wrote to the outbox, sign in.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace docs::test {

std::string latestOutboxCode(const std::string& dataDir, const std::string& email) {
  return latestOutboxCode(dataDir, email, "sign-in code is");
}

std::string latestOutboxCode(const std::string& dataDir, const std::string& email, const std::string& phrase) {
  fs::path outbox = fs::path(dataDir) / "outbox";
  std::error_code ec;
  if (!fs::is_directory(outbox, ec)) return "";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(outbox, ec))
    if (entry.path().extension() == ".eml") files.push_back(entry.path());
  // Names start with a zero-padded millisecond timestamp and a sequence number: newest last.
  std::sort(files.begin(), files.end());
  const std::regex codePattern(phrase + " ([0-9]{6})");
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    std::ifstream in(*it);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    if (text.find("\nTo: " + email + "\r\n") == std::string::npos &&
        text.find("\nTo: <" + email + ">\r\n") == std::string::npos && text.rfind("To: " + email + "\r\n", 0) != 0)
      continue;
    std::smatch match;
    if (std::regex_search(text, match, codePattern)) return match[1];
  }
  return "";
}

SignedIn signInByEmail(const Docsd& docsd, const std::string& email) {
  nlohmann::json send = {{"email", email}, {"type", "sign-in"}};
  auto sent = httpRequest(docsd.port(), "POST", "/api/auth/email-otp/send-verification-otp", send.dump(),
                          {{"Content-Type", "application/json"}});
  if (sent.status != 200)
    throw std::runtime_error("send-verification-otp: " + std::to_string(sent.status) + " " + sent.body);
  std::string code = latestOutboxCode(docsd.dataDir(), email);
  if (code.empty()) throw std::runtime_error("no one-time code in the outbox for " + email);
  nlohmann::json signIn = {{"email", email}, {"otp", code}};
  auto response = httpRequest(docsd.port(), "POST", "/api/auth/sign-in/email-otp", signIn.dump(),
                              {{"Content-Type", "application/json"}});
  if (response.status != 200)
    throw std::runtime_error("sign-in/email-otp: " + std::to_string(response.status) + " " + response.body);
  SignedIn result;
  result.email = email;
  result.token = response.header("set-auth-jwt");
  for (const auto& cookie : response.setCookies) {
    auto end = cookie.find(';');
    std::string pair = cookie.substr(0, end);
    if (pair.rfind("docs_session=", 0) == 0) result.cookie = pair;
  }
  auto body = nlohmann::json::parse(response.body, nullptr, false);
  if (body.is_object() && body.contains("user")) result.userId = body["user"].value("id", "");
  if (result.token.empty() || result.cookie.empty() || result.userId.empty())
    throw std::runtime_error("sign-in answered without a token, cookie or user: " + response.body);
  return result;
}

HttpResponse deleteAccount(const Docsd& docsd, const SignedIn& who) {
  std::map<std::string, std::string> headers = who.bearer();
  headers["Content-Type"] = "application/json";
  auto sent = httpRequest(docsd.port(), "POST", "/api/auth/delete-user/send-code", "{}", headers);
  if (sent.status != 200) return sent;
  std::string code = latestOutboxCode(docsd.dataDir(), who.email, "account deletion code is");
  if (code.empty()) throw std::runtime_error("no account deletion code in the outbox for " + who.email);
  return httpRequest(docsd.port(), "POST", "/api/auth/delete-user", nlohmann::json{{"otp", code}}.dump(), headers);
}

}  // namespace docs::test
