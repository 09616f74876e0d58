// The auth plugin in the real docsd against PostgreSQL: the email flow (outbox and a real
// SMTP conversation), GitHub sign-in against a local fake, sessions, JWTs and the abuse
// cases: guessing, expiry, reuse, flooding, forged tokens, OAuth state and redirects.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <utility>

#include "crypto.hpp"
#include "fake_github.hpp"
#include "jwt.hpp"
#include "smtp_sink.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using docs::test::Docsd;
using docs::test::httpRequest;
using docs::test::HttpResponse;
using nlohmann::json;

namespace {

using Headers = std::map<std::string, std::string>;

class AuthFlow : public ::testing::Test {
 protected:
  void start(Headers env = {}) {
    env.emplace("DOCS_PLUGINS_ENABLED", "auth");
    docsd_ = std::make_unique<Docsd>(Docsd::Options{env, {"serve"}, "", database_.url()});
    ASSERT_TRUE(docsd_->start()) << docsd_->log();
  }
  HttpResponse post(const std::string& path, const json& body, Headers headers = {}) {
    headers.emplace("Content-Type", "application/json");
    return httpRequest(docsd_->port(), "POST", path, body.dump(), headers);
  }
  HttpResponse get(const std::string& path, const Headers& headers = {}) {
    return httpRequest(docsd_->port(), "GET", path, "", headers);
  }
  static json body(const HttpResponse& r) { return json::parse(r.body, nullptr, false); }
  static std::string errorCode(const HttpResponse& r) {
    auto b = body(r);
    return b.is_object() && b.contains("error") ? b["error"].value("code", "") : "";
  }
  HttpResponse sendCode(const std::string& email, Headers headers = {}) {
    return post("/api/auth/email-otp/send-verification-otp", {{"email", email}, {"type", "sign-in"}},
                std::move(headers));
  }
  HttpResponse signIn(const std::string& email, const std::string& otp) {
    return post("/api/auth/sign-in/email-otp", {{"email", email}, {"otp", otp}});
  }
  std::string code(const std::string& email) { return docs::test::latestOutboxCode(docsd_->dataDir(), email); }
  // First column of the first row, or "" (and a test failure) on error.
  std::string sql(const std::string& query) { return docs::test::sqlValue(database_.url(), query); }
  // The signing keys published at /api/auth/jwks, by kid.
  std::map<std::string, std::string> jwks() {
    std::map<std::string, std::string> keys;
    json published = body(get("/api/auth/jwks"));
    for (const auto& key : published["keys"]) {
      EXPECT_EQ(key["alg"], "EdDSA");
      EXPECT_EQ(key["crv"], "Ed25519");
      keys[key["kid"]] = docs::codec::base64UrlDecode(key["x"].get<std::string>()).value_or("");
    }
    return keys;
  }
  std::optional<json> verifiedClaims(const std::string& token) {
    auto keys = jwks();
    auto result = docs_auth::verifyJwt(token,
                                       [&](const std::string& kid) -> std::optional<std::string> {
                                         if (!keys.count(kid)) return std::nullopt;
                                         return keys[kid];
                                       },
                                       std::time(nullptr), {"docsd", "docsd"});
    return result.claims;
  }
  static std::string sessionCookie(const HttpResponse& r) {
    for (const auto& cookie : r.setCookies)
      if (cookie.rfind("docs_session=", 0) == 0) return cookie;
    return "";
  }
  static std::string cookiePair(const std::string& setCookie) { return setCookie.substr(0, setCookie.find(';')); }

  docs::test::TestDatabase database_;
  std::unique_ptr<Docsd> docsd_;
};

}  // namespace

TEST_F(AuthFlow, EmailCodeFlowThroughTheOutbox) {
  start();
  auto sent = sendCode("  Alice@Example.com ");
  ASSERT_EQ(sent.status, 200) << sent.body;
  EXPECT_EQ(body(sent)["success"], true);
  std::string otp = code("alice@example.com");
  ASSERT_EQ(otp.size(), 6u);
  EXPECT_EQ(sql("SELECT count(*) FROM auth_otps WHERE code_hash LIKE '%" + otp + "%'"), "0");  // stored hashed

  auto signedIn = signIn("alice@example.com", otp);
  ASSERT_EQ(signedIn.status, 200) << signedIn.body;
  auto user = body(signedIn)["user"];
  EXPECT_EQ(user["email"], "alice@example.com");
  std::string setCookie = sessionCookie(signedIn);
  ASSERT_FALSE(setCookie.empty());
  EXPECT_NE(setCookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(setCookie.find("SameSite=Lax"), std::string::npos);
  EXPECT_EQ(setCookie.find("Secure"), std::string::npos);  // plain HTTP here
  std::string jwt = signedIn.header("set-auth-jwt");
  auto claims = verifiedClaims(jwt);
  ASSERT_TRUE(claims.has_value());
  EXPECT_EQ((*claims)["sub"], user["id"]);
  EXPECT_EQ((*claims)["email"], "alice@example.com");
  EXPECT_GT((*claims)["exp"].get<std::int64_t>(), std::time(nullptr) + 800);
  EXPECT_EQ((*claims)["iss"], "docsd");  // no server.public_url here
  EXPECT_EQ((*claims)["aud"], "docsd");

  // The cookie and the bearer token both give the session, with a fresh token exposed to the SPA.
  std::string origin = "http://localhost:" + std::to_string(docsd_->port());
  auto byCookie = get("/api/auth/get-session", {{"Cookie", cookiePair(setCookie)}, {"Origin", origin}});
  ASSERT_EQ(byCookie.status, 200);
  EXPECT_EQ(body(byCookie)["user"]["id"], user["id"]);
  EXPECT_TRUE(verifiedClaims(byCookie.header("set-auth-jwt")).has_value());
  EXPECT_NE(byCookie.header("access-control-expose-headers").find("set-auth-jwt"), std::string::npos);
  auto byBearer = get("/api/auth/get-session", {{"Authorization", "Bearer " + jwt}});
  ASSERT_EQ(byBearer.status, 200) << byBearer.body;
  EXPECT_EQ(body(byBearer)["user"]["email"], "alice@example.com");
  EXPECT_EQ(body(byBearer)["session"]["id"], (*claims)["sid"]);

  // No credentials: no session (the SPA then logs out), not an error.
  auto anonymous = get("/api/auth/get-session");
  EXPECT_EQ(anonymous.status, 200);
  EXPECT_TRUE(body(anonymous).is_null());

  // Signing in again finds the same account.
  ASSERT_EQ(sendCode("alice@example.com").status, 200);
  auto again = signIn("alice@example.com", code("alice@example.com"));
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(body(again)["user"]["id"], user["id"]);
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users"), "1");
}

TEST_F(AuthFlow, GetSessionRefreshesTheToken) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto first = verifiedClaims(alice.token);
  ASSERT_TRUE(first.has_value());
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto refreshed = get("/api/auth/get-session", alice.bearer());
  ASSERT_EQ(refreshed.status, 200);
  std::string next = refreshed.header("set-auth-jwt");
  EXPECT_NE(next, alice.token);
  auto second = verifiedClaims(next);
  ASSERT_TRUE(second.has_value());
  EXPECT_GT((*second)["exp"].get<std::int64_t>(), (*first)["exp"].get<std::int64_t>());
  EXPECT_EQ((*second)["sid"], (*first)["sid"]);
  auto token = get("/api/auth/token", alice.bearer());
  ASSERT_EQ(token.status, 200);
  EXPECT_TRUE(verifiedClaims(body(token)["token"]).has_value());
}

TEST_F(AuthFlow, SignOutEndsTheSessionItsCookieAndItsTokens) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto other = docs::test::signInByEmail(*docsd_, "alice@example.com");  // another device
  auto out = post("/api/auth/sign-out", json::object(), {{"Cookie", alice.cookie}});
  ASSERT_EQ(out.status, 200);
  EXPECT_NE(sessionCookie(out).find("Max-Age=0"), std::string::npos);
  EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", alice.cookie}})).is_null());
  auto stale = get("/api/auth/get-session", alice.bearer());
  EXPECT_EQ(stale.status, 401);
  EXPECT_EQ(errorCode(stale), "invalid_token");
  EXPECT_EQ(get("/api/auth/token", {{"Cookie", alice.cookie}}).status, 401);
  // The other device's session is untouched.
  EXPECT_EQ(get("/api/auth/get-session", other.bearer()).status, 200);
  // Signing out twice, or with a dead token, still answers success.
  EXPECT_EQ(post("/api/auth/sign-out", json::object(), alice.bearer()).status, 200);
}

// What the SPA sends after idling: the cookie and a bearer that no longer verifies. The
// cookie's session must end all the same.
TEST_F(AuthFlow, SignOutWithADeadBearerStillEndsTheCookiesSession) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  for (std::string bearer : std::vector<std::string>{
           "Bearer not-a-jwt", "Bearer " + alice.token.substr(0, alice.token.size() - 4) + "AAAA"}) {
    auto fresh = docs::test::signInByEmail(*docsd_, "alice@example.com");
    ASSERT_EQ(get("/api/auth/get-session", {{"Cookie", fresh.cookie}}).status, 200);
    auto out = post("/api/auth/sign-out", json::object(), {{"Cookie", fresh.cookie}, {"Authorization", bearer}});
    EXPECT_EQ(out.status, 200) << out.body;
    EXPECT_NE(sessionCookie(out).find("Max-Age=0"), std::string::npos);
    EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", fresh.cookie}})).is_null()) << bearer;
    EXPECT_EQ(get("/api/auth/token", {{"Cookie", fresh.cookie}}).status, 401) << bearer;
  }
  // A valid bearer of one session and the cookie of another: both end.
  auto phone = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto laptop = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto headers = phone.bearer();
  headers["Cookie"] = laptop.cookie;
  EXPECT_EQ(post("/api/auth/sign-out", json::object(), headers).status, 200);
  EXPECT_EQ(get("/api/auth/get-session", phone.bearer()).status, 401);
  EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", laptop.cookie}})).is_null());
  // The first session, never signed out, is untouched.
  EXPECT_EQ(get("/api/auth/get-session", alice.bearer()).status, 200);
}

// Login CSRF: another site's form (text/plain, its own Origin) posts the attacker's code
// so the victim's browser is signed in as the attacker. Nothing of that may sign in.
TEST_F(AuthFlow, CrossSiteSignInAndPlainTextBodiesAreRefused) {
  start();
  ASSERT_EQ(sendCode("mallory@example.com").status, 200);
  std::string otp = code("mallory@example.com");
  std::string payload = json{{"email", "mallory@example.com"}, {"otp", otp}}.dump();
  auto signInWith = [&](const Headers& headers) {
    return httpRequest(docsd_->port(), "POST", "/api/auth/sign-in/email-otp", payload, headers);
  };
  auto fromForm = signInWith(
      {{"Content-Type", "text/plain"}, {"Origin", "https://evil.example"}, {"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(fromForm.status, 403) << fromForm.body;
  EXPECT_EQ(errorCode(fromForm), "cross_site");
  EXPECT_TRUE(fromForm.setCookies.empty());
  auto jsonElsewhere = signInWith({{"Content-Type", "application/json"}, {"Origin", "https://evil.example"}});
  EXPECT_EQ(jsonElsewhere.status, 403);
  auto noOrigin = signInWith({{"Content-Type", "text/plain"}, {"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(noOrigin.status, 403);
  auto plain = signInWith({{"Content-Type", "text/plain"}});
  EXPECT_EQ(plain.status, 415) << plain.body;
  EXPECT_EQ(errorCode(plain), "unsupported_media_type");
  auto form = signInWith({{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(form.status, 415);
  // The code was never consumed: the real page, same origin and JSON, signs in.
  auto ours = signInWith({{"Content-Type", "application/json"},
                          {"Origin", "http://localhost:" + std::to_string(docsd_->port())},
                          {"Sec-Fetch-Site", "same-origin"}});
  EXPECT_EQ(ours.status, 200) << ours.body;
  EXPECT_FALSE(ours.setCookies.empty());
  // A signed-in cookie cannot be spent from another site either.
  auto signedIn = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto out = httpRequest(
      docsd_->port(), "POST", "/api/auth/sign-out", "{}",
      {{"Content-Type", "application/json"}, {"Cookie", signedIn.cookie}, {"Origin", "https://evil.example"}});
  EXPECT_EQ(out.status, 403);
  EXPECT_FALSE(body(get("/api/auth/get-session", {{"Cookie", signedIn.cookie}})).is_null());
}

TEST_F(AuthFlow, GuessingPastTheTryLimitBurnsTheCode) {
  start();
  ASSERT_EQ(sendCode("bob@example.com").status, 200);
  std::string right = code("bob@example.com");
  std::string wrong = right == "000000" ? "111111" : "000000";
  for (int i = 0; i < 5; ++i) {
    auto r = signIn("bob@example.com", wrong);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(errorCode(r), "invalid_otp");
  }
  auto late = signIn("bob@example.com", right);
  EXPECT_EQ(late.status, 403);
  EXPECT_EQ(errorCode(late), "too_many_attempts");
  EXPECT_TRUE(sessionCookie(late).empty());
  // A new code works again.
  ASSERT_EQ(sendCode("bob@example.com").status, 200);
  EXPECT_EQ(signIn("bob@example.com", code("bob@example.com")).status, 200);
}

TEST_F(AuthFlow, ExpiredReusedAndMalformedCodesAreRefused) {
  start();
  ASSERT_EQ(sendCode("carol@example.com").status, 200);
  std::string otp = code("carol@example.com");
  sql("UPDATE auth_otps SET expires_at = now() - interval '1 second'");
  auto expired = signIn("carol@example.com", otp);
  EXPECT_EQ(expired.status, 400);
  EXPECT_EQ(errorCode(expired), "otp_expired");

  ASSERT_EQ(sendCode("carol@example.com").status, 200);
  otp = code("carol@example.com");
  ASSERT_EQ(signIn("carol@example.com", otp).status, 200);
  auto reused = signIn("carol@example.com", otp);
  EXPECT_EQ(reused.status, 400);
  EXPECT_EQ(errorCode(reused), "otp_expired");

  for (std::string bad : {"12345", "1234567", "12a456", " 123456", ""}) {
    auto r = signIn("carol@example.com", bad);
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(errorCode(r), "invalid_otp") << bad;
  }
  EXPECT_EQ(errorCode(post("/api/auth/sign-in/email-otp", {{"email", "carol@example.com"}, {"otp", 123456}})),
            "invalid_field");
  EXPECT_EQ(errorCode(post("/api/auth/sign-in/email-otp", {{"email", "nope"}, {"otp", "123456"}})), "invalid_email");
  EXPECT_EQ(errorCode(sendCode("not an email")), "invalid_email");
  EXPECT_EQ(errorCode(sendCode("a@b.co\r\nBcc: x@example.com")), "invalid_email");
  EXPECT_EQ(errorCode(post("/api/auth/email-otp/send-verification-otp",
                           {{"email", "a@example.com"}, {"type", "forget-password"}})),
            "invalid_type");
  EXPECT_EQ(httpRequest(docsd_->port(), "POST", "/api/auth/sign-in/email-otp", "{not json",
                        {{"Content-Type", "application/json"}})
                .status,
            400);
}

TEST_F(AuthFlow, ACodeOnlyWorksForItsOwnEmail) {
  start();
  ASSERT_EQ(sendCode("dave@example.com").status, 200);
  ASSERT_EQ(sendCode("erin@example.com").status, 200);
  std::string daves = code("dave@example.com");
  std::string erins = code("erin@example.com");
  if (daves != erins) {
    auto r = signIn("erin@example.com", daves);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(errorCode(r), "invalid_otp");
  }
  auto stranger = signIn("frank@example.com", daves);
  EXPECT_EQ(stranger.status, 400);
  EXPECT_EQ(errorCode(stranger), "otp_expired");  // frank has no code at all
  EXPECT_EQ(signIn("erin@example.com", erins).status, 200);
  EXPECT_EQ(signIn("dave@example.com", daves).status, 200);
}

TEST_F(AuthFlow, SendFloodingIsLimitedWithTheSameAnswerForEveryAddress) {
  start({{"DOCS_AUTH_OTP_SENDS_PER_EMAIL", "3"}});
  docs::test::signInByEmail(*docsd_, "known@example.com");  // one send used
  std::vector<HttpResponse> known, unknown;
  for (int i = 0; i < 3; ++i) {
    known.push_back(sendCode("known@example.com"));
    unknown.push_back(sendCode("unknown@example.com"));
  }
  EXPECT_EQ(known[0].status, 200);
  EXPECT_EQ(known[1].status, 200);
  EXPECT_EQ(known[2].status, 429);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(unknown[i].status, 200);
  auto fourth = sendCode("unknown@example.com");
  EXPECT_EQ(fourth.status, 429);
  EXPECT_EQ(body(fourth)["error"]["message"], body(known[2])["error"]["message"]);
  EXPECT_EQ(errorCode(fourth), "too_many_requests");
  EXPECT_FALSE(fourth.header("retry-after").empty());
  // Nothing was mailed past the limit.
  int mails = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(docsd_->dataDir()) / "outbox"))
    if (entry.path().extension() == ".eml") ++mails;
  EXPECT_EQ(mails, 6);
}

TEST_F(AuthFlow, SpoofedForwardedForDoesNotMoveThePerAddressLimit) {
  start({{"DOCS_AUTH_OTP_SENDS_PER_ADDRESS", "3"}});
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(
        sendCode("user" + std::to_string(i) + "@example.com", {{"X-Forwarded-For", "10.0.0." + std::to_string(i)}})
            .status,
        200);
  auto limited = sendCode("user9@example.com", {{"X-Forwarded-For", "10.9.9.9"}});
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(errorCode(limited), "too_many_requests");
}

TEST_F(AuthFlow, ATrustedProxysForwardedForIsTheClient) {
  start({{"DOCS_AUTH_OTP_SENDS_PER_ADDRESS", "3"}, {"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"}});
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(
        sendCode("user" + std::to_string(i) + "@example.com", {{"X-Forwarded-For", "10.0.0." + std::to_string(i)}})
            .status,
        200);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(sendCode("same" + std::to_string(i) + "@example.com", {{"X-Forwarded-For", "10.1.1.1"}}).status, 200);
  EXPECT_EQ(sendCode("same9@example.com", {{"X-Forwarded-For", "10.1.1.1"}}).status, 429);
}

TEST_F(AuthFlow, ForgedExpiredAndOrphanedTokensAre401) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto keys = jwks();
  ASSERT_EQ(keys.size(), 1u);
  const std::string kid = keys.begin()->first;
  const std::string publicKey = keys.begin()->second;
  auto firstDot = alice.token.find('.');
  auto lastDot = alice.token.rfind('.');
  std::string payload = alice.token.substr(firstDot + 1, lastDot - firstDot - 1);
  auto segment = [](const json& value) { return docs::codec::base64UrlEncode(value.dump()); };

  std::map<std::string, std::string> forged;
  forged["alg none"] = segment({{"alg", "none"}, {"kid", kid}}) + "." + payload + ".";
  std::string hsInput = segment({{"alg", "HS256"}, {"kid", kid}, {"typ", "JWT"}}) + "." + payload;
  forged["HS256 with the public key"] =
      hsInput + "." + docs::codec::base64UrlEncode(docs::codec::hmacSha256(publicKey, hsInput));
  forged["stripped signature"] = alice.token.substr(0, lastDot + 1);
  forged["no signature part"] = alice.token.substr(0, lastDot);
  // An expired token signed with the real key (read from the database, as only the server could).
  std::string privateKey = *docs::codec::base64Decode(sql("SELECT private_key FROM auth_signing_keys"));
  auto claims = json::parse(*docs::codec::base64UrlDecode(payload));
  claims["exp"] = std::time(nullptr) - 120;
  forged["expired"] = docs_auth::signJwt(claims, kid, privateKey);
  claims["exp"] = std::time(nullptr) + 600;
  auto stranger = docs_auth::generateEd25519();
  forged["unknown key id"] = docs_auth::signJwt(claims, "not-a-key", stranger.privateKey);
  forged["known kid, other key"] = docs_auth::signJwt(claims, kid, stranger.privateKey);
  // Signed with the real key, but minted for another deployment or service, or for none.
  auto mint = [&](const char* key, const json& value) {
    json c = claims;
    if (value.is_null()) c.erase(key);
    else c[key] = value;
    return docs_auth::signJwt(c, kid, privateKey);
  };
  ASSERT_EQ(claims["iss"], "docsd");
  forged["another issuer"] = mint("iss", "https://other.example.com");
  forged["no issuer"] = mint("iss", nullptr);
  forged["another audience"] = mint("aud", "github-webhooks");
  forged["no audience"] = mint("aud", nullptr);
  EXPECT_EQ(
      get("/api/auth/get-session", {{"Authorization", "Bearer " + docs_auth::signJwt(claims, kid, privateKey)}}).status,
      200);
  claims["sub"] = "999999";
  forged["another subject"] = docs_auth::signJwt(claims, "not-a-key", stranger.privateKey);
  for (const auto& [what, token] : forged) {
    auto r = get("/api/auth/get-session", {{"Authorization", "Bearer " + token}});
    EXPECT_EQ(r.status, 401) << what << ": " << r.body;
    EXPECT_EQ(errorCode(r), "invalid_token") << what;
  }
  // The untouched token still works, then dies with its user.
  ASSERT_EQ(get("/api/auth/get-session", alice.bearer()).status, 200);
  ASSERT_EQ(docs::test::deleteAccount(*docsd_, alice).status, 200);
  auto orphan = get("/api/auth/get-session", alice.bearer());
  EXPECT_EQ(orphan.status, 401);
  EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", alice.cookie}})).is_null());
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users"), "0");
}

TEST_F(AuthFlow, RealSmtpConversationWithALocalSink) {
  docs::test::SmtpSink sink;
  start({{"DOCS_SMTP_URL", "smtp://127.0.0.1:" + std::to_string(sink.port())},
         {"DOCS_SMTP_FROM", "Docs <login@docs.example.com>"}});
  ASSERT_EQ(sendCode("grace@example.com").status, 200);
  ASSERT_TRUE(sink.waitFor(1));
  auto mail = sink.messages().at(0);
  ASSERT_EQ(mail.recipients.size(), 1u);
  EXPECT_NE(mail.recipients[0].find("grace@example.com"), std::string::npos);
  EXPECT_NE(mail.from.find("login@docs.example.com"), std::string::npos);
  // The client asked for TLS, was refused by this sink, and sent no credentials.
  bool askedTls = false;
  for (const auto& command : mail.commands) askedTls = askedTls || command == "STARTTLS";
  EXPECT_TRUE(askedTls);
  auto at = mail.data.find("sign-in code is ");
  ASSERT_NE(at, std::string::npos) << mail.data;
  std::string otp = mail.data.substr(at + 16, 6);
  EXPECT_FALSE(fs::exists(fs::path(docsd_->dataDir()) / "outbox"));
  EXPECT_EQ(signIn("grace@example.com", otp).status, 200);
}

// smtp.require_tls: a server that offers no STARTTLS gets neither the recipient nor the
// code; the caller hears why, the log says it, and no code exists.
TEST_F(AuthFlow, RequireTlsRefusesAPlainSmtpServer) {
  docs::test::SmtpSink sink;
  start({{"DOCS_SMTP_URL", "smtp://127.0.0.1:" + std::to_string(sink.port())}, {"DOCS_SMTP_REQUIRE_TLS", "true"}});
  auto r = sendCode("grace@example.com");
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(errorCode(r), "mail_tls_unavailable");
  EXPECT_FALSE(body(r)["error"].value("request_id", "").empty());
  EXPECT_TRUE(sink.messages().empty());
  auto commands = sink.commands();
  bool askedTls = false;
  for (const auto& command : commands) {
    askedTls = askedTls || command == "STARTTLS";
    EXPECT_NE(command.rfind("MAIL", 0), 0u) << command;
    EXPECT_NE(command.rfind("RCPT", 0), 0u) << command;
  }
  EXPECT_TRUE(askedTls);
  EXPECT_EQ(sql("SELECT count(*) FROM auth_otps"), "0");
  EXPECT_NE(docsd_->log().find("smtp.require_tls"), std::string::npos);
}

TEST_F(AuthFlow, MailThatCannotBeSentLeavesNoCode) {
  start({{"DOCS_SMTP_URL", "smtp://127.0.0.1:1"}, {"DOCS_SMTP_TIMEOUT_MS", "2000"}});
  auto r = sendCode("heidi@example.com");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(errorCode(r), "mail_unavailable");
  EXPECT_EQ(sql("SELECT count(*) FROM auth_otps"), "0");
}

class GithubSignInTest : public AuthFlow {
 protected:
  void SetUp() override {
    github_ = std::make_unique<docs::test::FakeGithub>("client-1", "secret-1");
    start({{"DOCS_GITHUB_CLIENT_ID", "client-1"},
           {"DOCS_GITHUB_CLIENT_SECRET", "secret-1"},
           {"DOCS_GITHUB_URL", github_->url()},
           {"DOCS_GITHUB_API_URL", github_->apiUrl()}});
  }
  struct Started {
    std::string state;
    std::string cookie;  // docs_oauth_state=...
    std::string url;
  };
  Started startSignIn(const std::string& callbackUrl = "/auth-callback") {
    auto r = post("/api/auth/sign-in/social", {{"provider", "github"}, {"callbackURL", callbackUrl}});
    EXPECT_EQ(r.status, 200) << r.body;
    Started s;
    s.url = body(r).value("url", "");
    auto at = s.url.find("state=");
    if (at != std::string::npos) s.state = s.url.substr(at + 6, s.url.find('&', at) - at - 6);
    for (const auto& cookie : r.setCookies)
      if (cookie.rfind("docs_oauth_state=", 0) == 0) s.cookie = cookiePair(cookie);
    return s;
  }
  HttpResponse callback(const Started& s, const std::string& code, bool withCookie = true) {
    std::string state;
    for (char c : s.state) state += c == '.' ? "." : std::string(1, c);
    Headers headers;
    if (withCookie) headers["Cookie"] = s.cookie;
    return get("/api/auth/callback/github?code=" + code + "&state=" + state, headers);
  }
  void authorize(const std::string& code, std::int64_t id, const std::string& login, const std::string& email,
                 bool verified = true) {
    github_->addAuthorization(
        code, {{"id", id}, {"login", login}, {"name", "Mona Lisa"}, {"avatar_url", "https://avatars.example/" + login}},
        json::array({{{"email", "secondary@example.com"}, {"primary", false}, {"verified", true}},
                     {{"email", email}, {"primary", true}, {"verified", verified}}}));
  }

  std::unique_ptr<docs::test::FakeGithub> github_;
};

TEST_F(GithubSignInTest, FullFlowLinksOrCreatesTheAccount) {
  auto started = startSignIn();
  EXPECT_EQ(started.url.rfind(github_->url() + "/login/oauth/authorize?client_id=client-1", 0), 0u) << started.url;
  ASSERT_FALSE(started.state.empty());
  ASSERT_FALSE(started.cookie.empty());
  authorize("code-1", 4242, "octocat", "Mona@Example.com");
  auto done = callback(started, "code-1");
  ASSERT_EQ(done.status, 302) << done.body;
  EXPECT_EQ(done.header("location"), "/auth-callback");
  std::string session = sessionCookie(done);
  ASSERT_FALSE(session.empty());
  auto me = body(get("/api/auth/get-session", {{"Cookie", cookiePair(session)}}));
  EXPECT_EQ(me["user"]["email"], "mona@example.com");
  EXPECT_EQ(me["user"]["login"], "octocat");
  EXPECT_EQ(me["user"]["name"], "Mona Lisa");
  EXPECT_EQ(me["user"]["image"], "https://avatars.example/octocat");
  auto exchange = github_->exchanges().at(0);
  EXPECT_EQ(exchange["client_secret"], "secret-1");
  EXPECT_EQ(exchange["redirect_uri"],
            "http://localhost:" + std::to_string(docsd_->port()) + "/api/auth/callback/github");

  // The same GitHub account with a changed email is still the same user (keyed on the id).
  auto second = startSignIn();
  authorize("code-2", 4242, "octocat-renamed", "new-address@example.com");
  auto again = callback(second, "code-2");
  ASSERT_EQ(again.status, 302);
  auto meAgain = body(get("/api/auth/get-session", {{"Cookie", cookiePair(sessionCookie(again))}}));
  EXPECT_EQ(meAgain["user"]["id"], me["user"]["id"]);
  EXPECT_EQ(meAgain["user"]["login"], "octocat-renamed");

  // An email account meets GitHub with the same verified address: one user.
  auto ivan = docs::test::signInByEmail(*docsd_, "ivan@example.com");
  auto third = startSignIn("http://localhost:" + std::to_string(docsd_->port()) + "/auth-callback");
  authorize("code-3", 777, "ivan-gh", "ivan@example.com");
  auto linked = callback(third, "code-3");
  ASSERT_EQ(linked.status, 302);
  EXPECT_EQ(linked.header("location"), "http://localhost:" + std::to_string(docsd_->port()) + "/auth-callback");
  EXPECT_EQ(body(get("/api/auth/get-session", {{"Cookie", cookiePair(sessionCookie(linked))}}))["user"]["id"],
            ivan.userId);
}

TEST_F(GithubSignInTest, MissingForgedOrReplayedStateSignsNobodyIn) {
  authorize("code-1", 1, "one", "one@example.com");
  auto missing = get("/api/auth/callback/github?code=code-1");
  EXPECT_EQ(missing.status, 302);
  EXPECT_EQ(missing.header("location"), "/login?error=state_mismatch");
  EXPECT_TRUE(sessionCookie(missing).empty());

  auto started = startSignIn();
  Started forged = started;
  forged.state = started.state.substr(0, started.state.find('.')) + ".AAAA";
  EXPECT_EQ(callback(forged, "code-1").header("location"), "/login?error=state_mismatch");
  // A state planted in another browser (no cookie) does nothing.
  auto planted = callback(started, "code-1", false);
  EXPECT_EQ(planted.header("location"), "/login?error=state_mismatch");
  EXPECT_TRUE(sessionCookie(planted).empty());

  auto first = callback(started, "code-1");
  EXPECT_EQ(first.header("location"), "/auth-callback");
  EXPECT_FALSE(sessionCookie(first).empty());
  auto replayed = callback(started, "code-1");
  EXPECT_EQ(replayed.header("location"), "/login?error=state_mismatch");
  EXPECT_TRUE(sessionCookie(replayed).empty());
  EXPECT_TRUE(github_->exchanges().size() == 1u);

  // An expired state.
  auto late = startSignIn();
  sql("UPDATE auth_oauth_states SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
  EXPECT_EQ(callback(late, "code-1").header("location"), "/login?error=state_mismatch");
}

TEST_F(GithubSignInTest, OpenRedirectsAndBadProfilesAreRefused) {
  for (std::string target : {"https://evil.example/auth-callback", "//evil.example/x", "/\\evil.example",
                             "javascript:alert(1)", "http://localhost:1/auth-callback"}) {
    auto r = post("/api/auth/sign-in/social", {{"provider", "github"}, {"callbackURL", target}});
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_EQ(errorCode(r), "invalid_callback_url") << target;
  }
  EXPECT_EQ(errorCode(post("/api/auth/sign-in/social", {{"provider", "gitlab"}})), "unsupported_provider");

  // GitHub refuses the code, or the account has no verified email: back to login, no session.
  auto started = startSignIn();
  auto refused = callback(started, "never-issued");
  EXPECT_EQ(refused.header("location"), "/login?error=github_failed");
  EXPECT_TRUE(sessionCookie(refused).empty());
  authorize("unverified", 5, "five", "five@example.com", false);
  auto unverified = callback(startSignIn(), "unverified");
  EXPECT_EQ(unverified.header("location"), "/login?error=github_failed");
  EXPECT_TRUE(sessionCookie(unverified).empty());
  auto denied = get("/api/auth/callback/github?error=access_denied&state=" + [&] { return startSignIn().state; }(), {});
  EXPECT_EQ(denied.header("location"), "/login?error=state_mismatch");  // no cookie sent
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users"), "0");
}

TEST_F(AuthFlow, GithubSignInIsOffWithoutAClientId) {
  start();
  auto r = post("/api/auth/sign-in/social", {{"provider", "github"}, {"callbackURL", "/auth-callback"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(errorCode(r), "provider_not_configured");
}

TEST_F(AuthFlow, KeyRotationKeepsEarlierTokensValid) {
  start({{"DOCS_AUTH_MAINTENANCE_INTERVAL_SECONDS", "1"}});
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  ASSERT_EQ(jwks().size(), 1u);
  std::string oldKid = jwks().begin()->first;
  sql("UPDATE auth_signing_keys SET created_at = now() - interval '31 days'");
  for (int i = 0; i < 100 && jwks().size() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(jwks().size(), 2u);
  // The old token verifies, and the session hands out tokens from the new key.
  auto refreshed = get("/api/auth/get-session", alice.bearer());
  ASSERT_EQ(refreshed.status, 200) << refreshed.body;
  std::string next = refreshed.header("set-auth-jwt");
  auto header = json::parse(*docs::codec::base64UrlDecode(next.substr(0, next.find('.'))));
  EXPECT_NE(header["kid"], oldKid);
  EXPECT_TRUE(verifiedClaims(next).has_value());
  EXPECT_TRUE(verifiedClaims(alice.token).has_value());
}

TEST_F(AuthFlow, ASessionInUseIsExtendedAndAnExpiredOneIsGone) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  sql("UPDATE auth_sessions SET expires_at = now() + interval '2 days'");
  auto used = get("/api/auth/get-session", {{"Cookie", alice.cookie}});
  ASSERT_EQ(used.status, 200);
  EXPECT_EQ(sql("SELECT expires_at > now() + interval '29 days' FROM auth_sessions"), "t");
  sql("UPDATE auth_sessions SET expires_at = now() - interval '1 second'");
  EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", alice.cookie}})).is_null());
  EXPECT_EQ(get("/api/auth/get-session", alice.bearer()).status, 401);
}

TEST_F(AuthFlow, TheIssuerIsThePublicUrlOrTheConfiguredOne) {
  start({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com/"}, {"DOCS_AUTH_JWT_AUDIENCE", "docs-test"}});
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto claims = json::parse(*docs::codec::base64UrlDecode(
      alice.token.substr(alice.token.find('.') + 1, alice.token.rfind('.') - alice.token.find('.') - 1)));
  EXPECT_EQ(claims["iss"], "https://docs.example.com");
  EXPECT_EQ(claims["aud"], "docs-test");
  EXPECT_EQ(get("/api/auth/get-session", alice.bearer()).status, 200);
  // The same key, another deployment's names: refused.
  std::string privateKey = *docs::codec::base64Decode(sql("SELECT private_key FROM auth_signing_keys"));
  std::string kid = sql("SELECT kid FROM auth_signing_keys");
  claims["aud"] = "docsd";
  auto other =
      get("/api/auth/get-session", {{"Authorization", "Bearer " + docs_auth::signJwt(claims, kid, privateKey)}});
  EXPECT_EQ(other.status, 401);
  EXPECT_EQ(errorCode(other), "invalid_token");
  EXPECT_NE(body(other)["error"]["message"].get<std::string>().find("audience"), std::string::npos);
}

// Sliding keeps a session in steady use alive, but never past auth.session_max_days from
// sign-in: a stolen cookie kept warm dies all the same.
TEST_F(AuthFlow, ASessionOlderThanTheMaximumIsRefusedEvenInSteadyUse) {
  start({{"DOCS_AUTH_SESSION_TTL_DAYS", "30"}, {"DOCS_AUTH_SESSION_MAX_DAYS", "60"}});
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  // 50 days in, used every day: the extension stops at day 60, not day 80.
  sql("UPDATE auth_sessions SET created_at = now() - interval '50 days', expires_at = now() + interval '1 day'");
  ASSERT_EQ(get("/api/auth/get-session", {{"Cookie", alice.cookie}}).status, 200);
  EXPECT_EQ(
      sql("SELECT abs(extract(epoch FROM expires_at - (created_at + interval '60 days'))) < 5 FROM auth_sessions"),
      "t");
  EXPECT_EQ(get("/api/auth/get-session", alice.bearer()).status, 200);
  // Past the maximum (the expiry moved forward by hand, as the sliding never would): gone
  // for the cookie and for every token naming the session.
  sql("UPDATE auth_sessions SET created_at = now() - interval '60 days 1 minute', expires_at = now() + interval '20 "
      "days'");
  EXPECT_TRUE(body(get("/api/auth/get-session", {{"Cookie", alice.cookie}})).is_null());
  auto byToken = get("/api/auth/get-session", alice.bearer());
  EXPECT_EQ(byToken.status, 401);
  EXPECT_EQ(errorCode(byToken), "invalid_token");
  EXPECT_EQ(get("/api/auth/token", {{"Cookie", alice.cookie}}).status, 401);
  EXPECT_EQ(sql("SELECT expires_at > now() + interval '19 days' FROM auth_sessions"), "t");  // not extended either
}

namespace {

// The sign-in link in the newest mail to email ("" when none).
std::string latestLink(const std::string& dataDir, const std::string& email) {
  fs::path outbox = fs::path(dataDir) / "outbox";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(outbox))
    if (entry.path().extension() == ".eml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    std::ifstream in(*it);
    std::stringstream text;
    text << in.rdbuf();
    std::string mail = text.str();
    if (mail.find("To: " + email + "\r\n") == std::string::npos) continue;
    auto at = mail.find("/login/link#token=");
    if (at == std::string::npos) return "";
    auto start = mail.rfind('\n', at) + 1;
    return mail.substr(start, mail.find('\r', at) - start);
  }
  return "";
}

std::string tokenOf(const std::string& link) { return link.substr(link.find("#token=") + 7); }

}  // namespace

// One address guessing codes of many accounts: past a few failures each try waits twice
// as long as the last (429 with Retry-After), and past the daily cap none is taken, not
// even a right code; other addresses are untouched. Time moves by shifting the recorded
// failures back, never by sleeping.
TEST_F(AuthFlow, GuessingPastTheDailyCapFromOneAddressGets429WithBackOff) {
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"},
         {"DOCS_AUTH_FAILURES_PER_ADDRESS_PER_DAY", "6"},
         {"DOCS_AUTH_FAILURE_BACKOFF_AFTER", "3"},
         {"DOCS_AUTH_FAILURE_BACKOFF_SECONDS", "60"},
         {"DOCS_AUTH_OTP_SENDS_PER_ADDRESS", "100"}});
  Headers attacker = {{"X-Forwarded-For", "203.0.113.9"}};
  auto guess = [&](int i) {
    std::string email = "victim" + std::to_string(i) + "@example.com";
    if (code(email).empty()) {
      EXPECT_EQ(sendCode(email).status, 200);
    }
    std::string right = code(email);
    return post("/api/auth/sign-in/email-otp", {{"email", email}, {"otp", right == "000000" ? "111111" : "000000"}},
                attacker);
  };
  auto retryAfter = [](const HttpResponse& r) {
    return std::stoll(r.header("retry-after").empty() ? "0" : r.header("retry-after"));
  };
  auto shift = [&](const std::string& by) {
    sql("UPDATE auth_failures SET created_at = created_at - interval '" + by + "'");
  };
  for (int i = 0; i < 4; ++i) EXPECT_EQ(errorCode(guess(i)), "invalid_otp") << i;
  // Past three free failures: 60 s after the fourth.
  auto waited = guess(4);
  EXPECT_EQ(waited.status, 429) << waited.body;
  EXPECT_EQ(errorCode(waited), "too_many_failures");
  auto error = body(waited)["error"];
  EXPECT_FALSE(error.value("message", "").empty());
  EXPECT_FALSE(error.value("request_id", "").empty());
  EXPECT_GE(retryAfter(waited), 50);
  EXPECT_LE(retryAfter(waited), 60);
  shift("61 seconds");
  EXPECT_EQ(errorCode(guess(4)), "invalid_otp");
  // Then 120 s after the fifth.
  auto doubled = guess(5);
  EXPECT_EQ(doubled.status, 429);
  EXPECT_GT(retryAfter(doubled), 100);
  EXPECT_LE(retryAfter(doubled), 120);
  shift("121 seconds");
  EXPECT_EQ(errorCode(guess(5)), "invalid_otp");
  // Six failures today: the cap. However long the back-off has passed, nothing until the
  // oldest failure is a day old, not even the right code from this address.
  shift("2 hours");
  auto capped = guess(6);
  EXPECT_EQ(capped.status, 429);
  EXPECT_EQ(errorCode(capped), "too_many_failures");
  EXPECT_GT(retryAfter(capped), 20 * 3600);
  EXPECT_LE(retryAfter(capped), 86400);
  auto right = post("/api/auth/sign-in/email-otp",
                    {{"email", "victim6@example.com"}, {"otp", code("victim6@example.com")}}, attacker);
  EXPECT_EQ(right.status, 429);
  EXPECT_TRUE(sessionCookie(right).empty());
  EXPECT_EQ(sql("SELECT count(*) FROM auth_failures WHERE bucket LIKE 'address:%'"),
            "6");  // refused tries are not counted
  // Another client signs in with the same code meanwhile.
  auto elsewhere =
      post("/api/auth/sign-in/email-otp", {{"email", "victim6@example.com"}, {"otp", code("victim6@example.com")}},
           {{"X-Forwarded-For", "198.51.100.4"}});
  EXPECT_EQ(elsewhere.status, 200) << elsewhere.body;
  // A day after the first failure the address may try again.
  shift("1 day");
  EXPECT_EQ(errorCode(guess(7)), "invalid_otp");
}

// IPv6 clients are counted by their /64 (one host holds a whole /64): addresses in one
// /64 share the send limit and the failure cap, another /64 does not. The addresses come
// through a trusted proxy's X-Forwarded-For, as in a deployment behind one.
TEST_F(AuthFlow, Ipv6AddressesInOneSlash64ShareTheirLimits) {
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"},
         {"DOCS_AUTH_OTP_SENDS_PER_ADDRESS", "2"},
         {"DOCS_AUTH_FAILURES_PER_ADDRESS_PER_DAY", "2"},
         {"DOCS_AUTH_FAILURE_BACKOFF_AFTER", "10"}});
  auto from = [](const std::string& address) { return Headers{{"X-Forwarded-For", address}}; };
  EXPECT_EQ(sendCode("a@example.com", from("2001:db8:1:2::1")).status, 200);
  EXPECT_EQ(sendCode("b@example.com", from("2001:db8:1:2:ffff:ffff:ffff:fffe")).status, 200);
  auto third = sendCode("c@example.com", from("2001:DB8:1:2:abcd::7"));
  EXPECT_EQ(third.status, 429);
  EXPECT_EQ(errorCode(third), "too_many_requests");
  EXPECT_EQ(sendCode("c@example.com", from("2001:db8:1:3::1")).status, 200);  // the next /64

  auto wrong = [&](const std::string& email, const std::string& address) {
    std::string right = code(email);
    return post("/api/auth/sign-in/email-otp", {{"email", email}, {"otp", right == "000000" ? "111111" : "000000"}},
                from(address));
  };
  EXPECT_EQ(errorCode(wrong("a@example.com", "2001:db8:1:2::10")), "invalid_otp");
  EXPECT_EQ(errorCode(wrong("b@example.com", "2001:db8:1:2::20")), "invalid_otp");
  auto capped = wrong("a@example.com", "2001:db8:1:2::30");
  EXPECT_EQ(capped.status, 429);
  EXPECT_EQ(errorCode(capped), "too_many_failures");
  EXPECT_FALSE(capped.header("retry-after").empty());
  EXPECT_EQ(errorCode(wrong("a@example.com", "2001:db8:1:3::30")), "invalid_otp");
  EXPECT_EQ(
      sql("SELECT string_agg(DISTINCT bucket, ',' ORDER BY bucket) FROM auth_failures WHERE bucket LIKE 'address:%'"),
      "address:2001:db8:1:2::/64,address:2001:db8:1:3::/64");
  // IPv4 stays per address.
  EXPECT_EQ(sendCode("d@example.com", from("192.0.2.1")).status, 200);
  EXPECT_EQ(sendCode("e@example.com", from("192.0.2.2")).status, 200);
}

// Behind a trusted proxy (the test client is on loopback) a mail's link carries the scheme the
// proxy forwarded (Request::publicOrigin); the same header from anyone else changes nothing.
TEST_F(AuthFlow, MailLinksUseTheSchemeATrustedProxyForwarded) {
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"}});
  ASSERT_EQ(sendCode("proxied@example.com", {{"X-Forwarded-Proto", "https"}}).status, 200);
  std::string link = latestLink(docsd_->dataDir(), "proxied@example.com");
  EXPECT_EQ(link.rfind("https://localhost:" + std::to_string(docsd_->port()) + "/login/link#token=", 0), 0u) << link;
}

TEST_F(AuthFlow, MailLinksIgnoreAForwardedSchemeFromAnUntrustedClient) {
  start();
  ASSERT_EQ(sendCode("direct@example.com", {{"X-Forwarded-Proto", "https"}}).status, 200);
  std::string link = latestLink(docsd_->dataDir(), "direct@example.com");
  EXPECT_EQ(link.rfind("http://localhost:" + std::to_string(docsd_->port()) + "/login/link#token=", 0), 0u) << link;
}

// A stranger guessing at someone's account locks its codes for the day, and fills the
// sends their address may make to it; the owner still gets a code from their own address,
// and the link in that mail signs them in though the code itself is refused.
TEST_F(AuthFlow, AnAttackerExhaustingTheAttemptsDoesNotStopTheVictimsMagicLink) {
  start({{"DOCS_SERVER_TRUSTED_PROXIES", "127.0.0.1"},
         {"DOCS_AUTH_FAILURES_PER_ACCOUNT_PER_DAY", "4"},
         {"DOCS_AUTH_FAILURE_BACKOFF_AFTER", "100"},
         {"DOCS_AUTH_OTP_SENDS_PER_EMAIL", "2"}});
  const std::string victim = "victim@example.com";
  Headers attacker = {{"X-Forwarded-For", "203.0.113.66"}}, owner = {{"X-Forwarded-For", "198.51.100.7"}};
  ASSERT_EQ(sendCode(victim, attacker).status, 200);
  std::string attackersLink = latestLink(docsd_->dataDir(), victim);
  for (int i = 0; i < 4; ++i) {
    std::string guess = std::to_string(100000 + i);
    if (guess == code(victim)) guess = "999999";
    auto r = post("/api/auth/sign-in/email-otp", {{"email", victim}, {"otp", guess}}, attacker);
    EXPECT_EQ(errorCode(r), "invalid_otp") << i;
    if (i == 3) {
      ASSERT_EQ(sendCode(victim, attacker).status, 200);  // a fresh code, more tries
    }
  }
  EXPECT_EQ(sendCode(victim, attacker).status, 429);  // the attacker's sends to this address are used up
  auto locked = post("/api/auth/sign-in/email-otp", {{"email", victim}, {"otp", "123456"}}, attacker);
  EXPECT_EQ(errorCode(locked), "too_many_failures");

  // The owner, elsewhere: a code is sent, the code is refused (the account is locked) ...
  ASSERT_EQ(sendCode(victim, owner).status, 200);
  auto byCode = post("/api/auth/sign-in/email-otp", {{"email", victim}, {"otp", code(victim)}}, owner);
  EXPECT_EQ(byCode.status, 429);
  EXPECT_EQ(errorCode(byCode), "too_many_failures");
  EXPECT_NE(body(byCode)["error"]["message"].get<std::string>().find("link"), std::string::npos);
  // ... and the link in the same mail signs in.
  std::string link = latestLink(docsd_->dataDir(), victim);
  ASSERT_FALSE(link.empty());
  EXPECT_EQ(link.rfind("http://localhost:" + std::to_string(docsd_->port()) + "/login/link#token=", 0), 0u) << link;
  std::string token = tokenOf(link);
  EXPECT_GE(token.size(), 40u);
  EXPECT_EQ(sql("SELECT count(*) FROM auth_magic_links WHERE token_hash LIKE '%" + token + "%'"),
            "0");  // stored hashed
  auto signedIn = post("/api/auth/sign-in/magic-link", {{"token", token}}, owner);
  ASSERT_EQ(signedIn.status, 200) << signedIn.body;
  EXPECT_EQ(body(signedIn)["user"]["email"], victim);
  EXPECT_FALSE(sessionCookie(signedIn).empty());
  EXPECT_TRUE(verifiedClaims(signedIn.header("set-auth-jwt")).has_value());
  // Single use.
  auto again = post("/api/auth/sign-in/magic-link", {{"token", token}}, owner);
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(errorCode(again), "invalid_link");
  EXPECT_TRUE(sessionCookie(again).empty());
  // The link in the mail the attacker made the server send is the owner's too, until it expires.
  sql("UPDATE auth_magic_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
  auto expired = post("/api/auth/sign-in/magic-link", {{"token", tokenOf(attackersLink)}}, owner);
  EXPECT_EQ(expired.status, 400);
  EXPECT_EQ(errorCode(expired), "invalid_link");
  EXPECT_EQ(errorCode(post("/api/auth/sign-in/magic-link", {{"token", "made-up"}}, attacker)), "invalid_link");
  EXPECT_EQ(errorCode(post("/api/auth/sign-in/magic-link", json::object(), attacker)), "missing_field");
}

// Links point at server.public_url, or at the origin asked only when it is loopback or
// allowed: a Host header naming another site gets a mail without a link, not a link there.
TEST_F(AuthFlow, LinksNeverPointWhereTheHostHeaderSays) {
  start();
  int i = 0;
  for (std::string host :
       {"evil.example", "localhost:@evil.example", "localhost.evil.example", "127.0.0.1.evil.example:80"}) {
    std::string email = "host" + std::to_string(i++) + "@example.com";
    std::string payload = json{{"email", email}, {"type", "sign-in"}}.dump();
    auto raw =
        docs::test::rawExchange(docsd_->port(),
                                "POST /api/auth/email-otp/send-verification-otp HTTP/1.1\r\nHost: " + host +
                                    "\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: " +
                                    std::to_string(payload.size()) + "\r\n\r\n" + payload,
                                std::chrono::seconds(10));
    if (raw.rfind("HTTP/1.1 200", 0) != 0) continue;  // refused outright: no mail at all
    EXPECT_FALSE(code(email).empty()) << host;
    EXPECT_EQ(latestLink(docsd_->dataDir(), email), "") << host;
  }
  EXPECT_FALSE(code("host0@example.com").empty());  // a foreign Host still gets its code
  ASSERT_EQ(sendCode("host@example.com").status, 200);
  EXPECT_FALSE(latestLink(docsd_->dataDir(), "host@example.com").empty());
}

TEST_F(AuthFlow, LinksUseThePublicUrl) {
  start({{"DOCS_SERVER_PUBLIC_URL", "https://docs.example.com"}});
  ASSERT_EQ(sendCode("pub@example.com").status, 200);
  EXPECT_EQ(latestLink(docsd_->dataDir(), "pub@example.com").rfind("https://docs.example.com/login/link#token=", 0),
            0u);
}

// Deleting an account needs a code mailed to it, entered within auth.delete_code_ttl_seconds:
// a session alone (a stolen cookie or token) is refused, and no other code will do.
TEST_F(AuthFlow, DeleteUserNeedsAFreshCodeFromTheAccountsMailbox) {
  start();
  auto alice = docs::test::signInByEmail(*docsd_, "alice@example.com");
  auto bob = docs::test::signInByEmail(*docsd_, "bob@example.com");
  auto withBearer = [](const docs::test::SignedIn& who) { return who.bearer(); };
  auto bare = post("/api/auth/delete-user", json::object(), withBearer(alice));
  EXPECT_EQ(bare.status, 403);
  EXPECT_EQ(errorCode(bare), "fresh_code_required");
  EXPECT_EQ(post("/api/auth/delete-user", json::object(), {{"Cookie", alice.cookie}}).status, 403);
  EXPECT_EQ(post("/api/auth/delete-user/send-code", json::object()).status, 401);
  EXPECT_EQ(post("/api/auth/delete-user", {{"otp", "123456"}}).status, 401);

  ASSERT_EQ(post("/api/auth/delete-user/send-code", json::object(), withBearer(alice)).status, 200);
  std::string deletion =
      docs::test::latestOutboxCode(docsd_->dataDir(), "alice@example.com", "account deletion code is");
  ASSERT_EQ(deletion.size(), 6u);
  // A sign-in code is not a deletion code, nor the other way round.
  ASSERT_EQ(sendCode("alice@example.com").status, 200);
  std::string signInCode = code("alice@example.com");
  if (signInCode != deletion) {
    EXPECT_EQ(errorCode(post("/api/auth/delete-user", {{"otp", signInCode}}, withBearer(alice))), "invalid_otp");
    EXPECT_EQ(errorCode(signIn("alice@example.com", deletion)), "invalid_otp");
  }
  // Another account's session cannot spend alice's code; a malformed code is a 400.
  EXPECT_EQ(errorCode(post("/api/auth/delete-user", {{"otp", deletion}}, withBearer(bob))), "otp_expired");
  EXPECT_EQ(errorCode(post("/api/auth/delete-user", {{"otp", "12345"}}, withBearer(alice))), "invalid_otp");
  // Too late.
  sql("UPDATE auth_otps SET expires_at = now() - interval '1 second' WHERE purpose = 'delete-account'");
  EXPECT_EQ(errorCode(post("/api/auth/delete-user", {{"otp", deletion}}, withBearer(alice))), "otp_expired");
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users WHERE email = 'alice@example.com'"), "1");
  // In time: deleted, with every session and token.
  auto deleted = docs::test::deleteAccount(*docsd_, alice);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(sql("SELECT count(*) FROM auth_users WHERE email = 'alice@example.com'"), "0");
  EXPECT_EQ(get("/api/auth/get-session", alice.bearer()).status, 401);
  EXPECT_EQ(get("/api/auth/get-session", bob.bearer()).status, 200);
}
