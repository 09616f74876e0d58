// The GitHub App's pieces without a network: webhook signatures (GitHub's published test
// vector), the app JWT (verified with the public key), GitHub's timestamps.
#include <gtest/gtest.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <docs/codec/codec.hpp>

#include <memory>
#include <nlohmann/json.hpp>

#include "github_app.hpp"
#include "webhook_signature.hpp"

using namespace docs_github;

TEST(WebhookSignature, GithubsPublishedTestVector) {
  // docs.github.com, "Validating webhook deliveries".
  EXPECT_EQ(webhookSignature("It's a Secret to Everybody", "Hello, World!"),
            "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  EXPECT_TRUE(validWebhookSignature("It's a Secret to Everybody", "Hello, World!",
                                    "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"));
}

TEST(WebhookSignature, AnythingElseIsRefused) {
  const std::string secret = "s3cret", body = R"({"zen":"Keep it logically awesome."})";
  auto good = webhookSignature(secret, body);
  EXPECT_TRUE(validWebhookSignature(secret, body, good));
  EXPECT_FALSE(validWebhookSignature(secret, body + " ", good));          // another body
  EXPECT_FALSE(validWebhookSignature("other", body, good));               // another secret
  EXPECT_FALSE(validWebhookSignature(secret, body, good.substr(0, 70)));  // cut
  EXPECT_FALSE(validWebhookSignature(secret, body, "sha1=" + good.substr(7)));
  EXPECT_FALSE(validWebhookSignature(secret, body, ""));
  EXPECT_FALSE(validWebhookSignature("", body, webhookSignature("", body)));  // no secret: nothing passes
  std::string upper = good;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_FALSE(validWebhookSignature(secret, body, upper));
  // The same JSON serialised another way is another body.
  EXPECT_FALSE(validWebhookSignature(secret, nlohmann::json::parse(body).dump(2), good));
}

namespace {

std::string newRsaKeyPem() {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_RSA_gen(2048), EVP_PKEY_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
  PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string fromBase64Url(const std::string& text) { return docs::codec::base64UrlDecode(text).value_or(""); }

}  // namespace

TEST(AppJwt, SignedWithTheAppKeyForTenMinutes) {
  auto pem = newRsaKeyPem();
  auto jwt = appJwt("12345", pem, 1'800'000'000);
  auto first = jwt.find('.'), second = jwt.rfind('.');
  ASSERT_NE(first, second);
  auto header = nlohmann::json::parse(fromBase64Url(jwt.substr(0, first)));
  auto payload = nlohmann::json::parse(fromBase64Url(jwt.substr(first + 1, second - first - 1)));
  EXPECT_EQ(header["alg"], "RS256");
  EXPECT_EQ(payload["iss"], "12345");
  EXPECT_EQ(payload["iat"], 1'800'000'000 - 60);
  EXPECT_EQ(payload["exp"], 1'800'000'000 + 540);
  // The signature verifies with the key's public half.
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr),
                                                          EVP_PKEY_free);
  std::string signature = fromBase64Url(jwt.substr(second + 1));
  std::string input = jwt.substr(0, second);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  ASSERT_EQ(EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()), 1);
  EXPECT_EQ(EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                             reinterpret_cast<const unsigned char*>(input.data()), input.size()),
            1);
  EXPECT_THROW(appJwt("1", "not a key", 0), std::runtime_error);
}

TEST(GithubTime, ParsesExpiries) {
  EXPECT_EQ(parseGithubTime("2016-07-11T22:14:10Z"), 1468275250);
  EXPECT_EQ(parseGithubTime("soon"), -1);
}
