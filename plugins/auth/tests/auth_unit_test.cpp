// The auth plugin's pure parts: JWT signing and the refusals, encodings, email and
// redirect rules.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <docs/db.hpp>
#include <docs/logger.hpp>

#include "auth_routes.hpp"
#include "crypto.hpp"
#include "github_sign_in.hpp"
#include "jwt.hpp"
#include "mailer.hpp"
#include "one_time_codes.hpp"
#include "sign_in_limits.hpp"

using namespace docs_auth;
using namespace docs::codec;
using nlohmann::json;

namespace {

struct KeyRing {
  std::map<std::string, std::string> keys;
  std::optional<std::string> operator()(const std::string& kid) const {
    auto found = keys.find(kid);
    if (found == keys.end()) return std::nullopt;
    return found->second;
  }
};

std::string segment(const json& value) { return base64UrlEncode(value.dump()); }

// Counts the statements it is given and answers none (an empty result).
class CountingDb final : public docs::Db, public docs::Tx {
 public:
  docs::Result exec(std::string_view, const docs::Params& = {}) override {
    ++statements;
    return {};
  }
  void execScript(std::string_view) override { ++statements; }
  void afterCommit(std::function<void()>) override {}
  void transaction(const std::function<void(docs::Tx&)>& body) override { body(*this); }
  int statements = 0;
};

class SilentLogger final : public docs::Logger {
 public:
  void log(docs::LogLevel, std::string_view, const json&) override {}
};

}  // namespace

TEST(Crypto, Base64RoundTripsAndRejectsNonCanonical) {
  for (const std::string& text :
       std::vector<std::string>{"", "f", "fo", "foo", "foob", "fooba", "foobar", std::string("\0\xff\x10", 3)}) {
    EXPECT_EQ(base64UrlDecode(base64UrlEncode(text)), text);
    EXPECT_EQ(base64Decode(base64Encode(text)), text);
  }
  EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64UrlEncode("\xfb\xff"), "-_8");
  EXPECT_FALSE(base64UrlDecode("Zm9=").has_value());  // padding is not base64url
  EXPECT_FALSE(base64UrlDecode("Zh").has_value());    // leftover bits set
  EXPECT_FALSE(base64UrlDecode("Z").has_value());
  EXPECT_FALSE(base64Decode("Zm9").has_value());
}

TEST(Crypto, RandomDigitsAreDigitsAndVary) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    auto code = randomDigits(6);
    ASSERT_EQ(code.size(), 6u);
    for (char c : code) ASSERT_TRUE(c >= '0' && c <= '9') << code;
    seen.insert(code);
  }
  EXPECT_GT(seen.size(), 190u);
  // Every digit shows up in every position over many codes.
  std::set<std::pair<int, char>> positions;
  for (int i = 0; i < 2000; ++i) {
    auto code = randomDigits(6);
    for (int p = 0; p < 6; ++p) positions.insert({p, code[p]});
  }
  EXPECT_EQ(positions.size(), 60u);
}

TEST(Crypto, HmacMatchesRfc4231) {
  std::string key(20, '\x0b');
  EXPECT_EQ(hexEncode(hmacSha256(key, "Hi There")), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_TRUE(constantTimeEqual("abc", "abc"));
  EXPECT_FALSE(constantTimeEqual("abc", "abd"));
  EXPECT_FALSE(constantTimeEqual("abc", "abcd"));
}

class JwtTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pair_ = generateEd25519();
    ring_.keys["k1"] = pair_.publicKey;
  }
  JwtResult verify(const std::string& token, std::int64_t now = 1000) {
    return verifyJwt(token, ring_, now, {"https://docs.example.com", "docsd"});
  }
  json claims(std::int64_t exp = 2000) {
    return {{"sub", "7"},    {"sid", "s"}, {"exp", exp}, {"iat", 900}, {"iss", "https://docs.example.com"},
            {"aud", "docsd"}};
  }

  Ed25519KeyPair pair_;
  KeyRing ring_;
};

TEST_F(JwtTest, SignedTokenVerifies) {
  auto token = signJwt(claims(), "k1", pair_.privateKey);
  auto result = verify(token);
  ASSERT_TRUE(result.claims.has_value()) << describe(result.error);
  EXPECT_EQ((*result.claims)["sub"], "7");
}

TEST_F(JwtTest, AlgNoneIsRefused) {
  std::string token = segment({{"alg", "none"}, {"kid", "k1"}}) + "." + segment(claims()) + ".";
  EXPECT_EQ(verify(token).error, JwtError::Algorithm);
  token = segment({{"alg", "none"}, {"kid", "k1"}}) + "." + segment(claims());
  EXPECT_FALSE(verify(token).claims.has_value());
}

TEST_F(JwtTest, Hs256SignedWithThePublicKeyIsRefused) {
  std::string input = segment({{"alg", "HS256"}, {"kid", "k1"}, {"typ", "JWT"}}) + "." + segment(claims());
  std::string token = input + "." + base64UrlEncode(hmacSha256(pair_.publicKey, input));
  auto result = verify(token);
  EXPECT_FALSE(result.claims.has_value());
  EXPECT_EQ(result.error, JwtError::Algorithm);
  // Same with the key as the JWK's base64url text, the other common confusion.
  token = input + "." + base64UrlEncode(hmacSha256(base64UrlEncode(pair_.publicKey), input));
  EXPECT_EQ(verify(token).error, JwtError::Algorithm);
}

TEST_F(JwtTest, StrippedOrAlteredSignatureIsRefused) {
  auto token = signJwt(claims(), "k1", pair_.privateKey);
  auto lastDot = token.rfind('.');
  EXPECT_EQ(verify(token.substr(0, lastDot + 1)).error, JwtError::Signature);
  EXPECT_FALSE(verify(token.substr(0, lastDot)).claims.has_value());
  // Claims swapped under the original signature.
  auto firstDot = token.find('.');
  std::string forged =
      token.substr(0, firstDot) + "." + segment({{"sub", "1"}, {"sid", "s"}, {"exp", 2000}}) + token.substr(lastDot);
  EXPECT_EQ(verify(forged).error, JwtError::Signature);
}

TEST_F(JwtTest, ExpiredAndUnknownKeyAreRefused) {
  EXPECT_EQ(verify(signJwt(claims(900), "k1", pair_.privateKey)).error, JwtError::Expired);
  EXPECT_TRUE(verify(signJwt(claims(990), "k1", pair_.privateKey)).claims.has_value());         // within leeway
  EXPECT_EQ(verify(signJwt({{"sub", "7"}}, "k1", pair_.privateKey)).error, JwtError::Expired);  // no exp at all
  auto other = generateEd25519();
  EXPECT_EQ(verify(signJwt(claims(), "k2", other.privateKey)).error, JwtError::UnknownKey);
  // A known kid with another key's signature.
  EXPECT_EQ(verify(signJwt(claims(), "k1", other.privateKey)).error, JwtError::Signature);
}

TEST_F(JwtTest, IssuerAndAudienceMustBeThisDeployments) {
  auto with = [&](const char* key, const json& value) {
    json c = claims();
    if (value.is_null()) c.erase(key);
    else c[key] = value;
    return verify(signJwt(c, "k1", pair_.privateKey));
  };
  EXPECT_EQ(with("iss", "https://evil.example").error, JwtError::Issuer);
  EXPECT_EQ(with("iss", nullptr).error, JwtError::Issuer);
  EXPECT_EQ(with("iss", json::array({"https://docs.example.com"})).error, JwtError::Issuer);
  EXPECT_EQ(with("aud", "another-service").error, JwtError::Audience);
  EXPECT_EQ(with("aud", nullptr).error, JwtError::Audience);
  EXPECT_EQ(with("aud", json::array({"a", "b"})).error, JwtError::Audience);
  EXPECT_EQ(with("aud", 7).error, JwtError::Audience);
  EXPECT_TRUE(with("aud", json::array({"other", "docsd"})).claims.has_value());
  // An empty expectation never matches a token that leaves the claim empty.
  json blank = claims();
  blank["iss"] = "";
  blank["aud"] = "";
  auto token = signJwt(blank, "k1", pair_.privateKey);
  EXPECT_FALSE(verifyJwt(token, ring_, 1000, {"", ""}).claims.has_value());
}

TEST_F(JwtTest, GarbageIsMalformedNotACrash) {
  for (const std::string& token :
       std::vector<std::string>{"", ".", "..", "...", "a.b.c", "eyJ.eyJ.", std::string(10000, 'a'),
                                segment(json::array()) + "." + segment(claims()) + ".AA"})
    EXPECT_FALSE(verify(token).claims.has_value()) << token.substr(0, 40);
}

TEST(Email, NormalisesAndRejects) {
  EXPECT_EQ(normalizeEmail("  Alice@Example.COM "), "alice@example.com");
  for (const std::string& bad : std::vector<std::string>{
           "", "alice", "@example.com", "alice@", "alice@example", "a@b@c.com", "alice@.com", "alice@example.com.",
           "alice@exa..mple.com", "al ice@example.com", "alice@example.com\r\nBcc: x@y.z", "<alice@example.com>",
           std::string(250, 'a') + "@example.com"})
    EXPECT_EQ(normalizeEmail(bad), "") << bad;
}

TEST(Redirect, OnlyThisDeploymentsOrigins) {
  std::vector<std::string> allowed = {"https://app.example.com"};
  auto check = [&](const std::string& url) {
    return allowedRedirect(url, "http://localhost:8080", "https://docs.example.com", allowed);
  };
  EXPECT_EQ(check(""), "/");
  EXPECT_EQ(check("/auth-callback"), "/auth-callback");
  EXPECT_EQ(check("http://localhost:8080/auth-callback"), "http://localhost:8080/auth-callback");
  EXPECT_EQ(check("https://docs.example.com/auth-callback"), "https://docs.example.com/auth-callback");
  EXPECT_EQ(check("https://APP.example.com/x"), "https://APP.example.com/x");
  for (std::string bad : {"//evil.example/x", "/\\evil.example", "https://evil.example/auth-callback",
                          "https://docs.example.com.evil.example/", "https://docs.example.com@evil.example/",
                          "javascript:alert(1)", "http://localhost:8081/", "https://docs.example.com:444/",
                          "/auth\r\nSet-Cookie: x=y", "data:text/html,hi", "evil.example"})
    EXPECT_FALSE(check(bad).has_value()) << bad;
}

TEST(ClientKey, Ipv4AsItIsIpv6ByItsSlash64) {
  EXPECT_EQ(clientKey("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(clientKey("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(clientKey("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(clientKey("2001:DB8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  EXPECT_EQ(clientKey("[2001:db8:1:2::9]"), "2001:db8:1:2::/64");
  EXPECT_EQ(clientKey("fe80::1%eth0"), "fe80::/64");
  EXPECT_EQ(clientKey("::1"), "::/64");
  EXPECT_NE(clientKey("2001:db8:1:3::1"), clientKey("2001:db8:1:2::1"));
  EXPECT_EQ(clientKey("not an address"), "not an address");
  EXPECT_EQ(clientKey(""), "");
}

TEST(RetryAfter, FreeThenDoublingThenTheDailyCap) {
  // failures, cap 10, 3 free, base 2 s, window one day, newest failure 0 s ago.
  auto wait = [](std::int64_t n, std::int64_t sinceLast = 0, std::int64_t untilOldest = 50000) {
    return retryAfterSeconds(n, 10, 3, 2, 86400, sinceLast, untilOldest);
  };
  EXPECT_EQ(wait(0), 0);
  EXPECT_EQ(wait(3), 0);
  EXPECT_EQ(wait(4), 2);
  EXPECT_EQ(wait(5), 4);
  EXPECT_EQ(wait(6), 8);
  EXPECT_EQ(wait(6, 5), 3);                                           // part of it has passed
  EXPECT_EQ(wait(6, 60), 0);                                          // all of it
  EXPECT_EQ(wait(10, 86000), 50000);                                  // the cap: until the oldest leaves the window
  EXPECT_EQ(retryAfterSeconds(200, 1000, 3, 2, 86400, 0, 0), 86400);  // the back-off stops at the window
}

TEST(AuthCoreOpen, CodesAndGithubStatesAreRefusedUntilTheSecretIsLoaded) {
  CountingDb db;
  SilentLogger logger;
  Mailer mailer(MailerSettings{}, logger);
  AuthSettings settings;
  std::string secret;  // AuthCore::open() fills it; until then it is empty
  OneTimeCodes codes(db, mailer, settings, secret);
  GithubSignIn github(db, settings, secret);

  EXPECT_THROW(codes.send("a@example.com", "192.0.2.1"), std::logic_error);
  EXPECT_THROW(codes.sendDeletionCode("a@example.com", "192.0.2.1"), std::logic_error);
  EXPECT_THROW(codes.check(db, "a@example.com", "123456"), std::logic_error);
  EXPECT_THROW(github.start("/", "http://localhost/cb"), std::logic_error);
  EXPECT_THROW(github.consumeState("nonce.signature", "nonce"), std::logic_error);
  EXPECT_EQ(db.statements, 0) << "nothing was stored with an empty key";

  secret = "loaded by open()";                                                   // both hold it by reference
  EXPECT_EQ(codes.check(db, "a@example.com", "123456"), CheckOutcome::Expired);  // no code stored
  EXPECT_FALSE(github.consumeState("nonce.forged", "nonce").has_value());
  EXPECT_GT(db.statements, 0);
}
