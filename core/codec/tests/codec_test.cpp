// docs::codec against RFC 4648 (base64, base64url, base16), RFC 4231 (HMAC-SHA256) and
// FIPS 180-2 (SHA-256) vectors, and the input each decoder must refuse.
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "docs/codec/codec.hpp"

using namespace docs::codec;

namespace {

std::string allBytes() {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  return bytes;
}

std::string unhex(std::string_view text) { return hexDecode(text).value(); }

// RFC 4648 §10.
const std::vector<std::pair<std::string, std::string>> kBase64Vectors = {
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
};

}  // namespace

TEST(Base64, Rfc4648Vectors) {
  for (const auto& [bytes, text] : kBase64Vectors) {
    EXPECT_EQ(base64Encode(bytes), text);
    EXPECT_EQ(base64Decode(text), bytes) << text;
    EXPECT_EQ(base64DecodeLenient(text), bytes) << text;
  }
}

TEST(Base64, RoundTripsEveryByteAndLongInput) {
  std::string bytes = allBytes();
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    std::string part = bytes.substr(0, n);
    EXPECT_EQ(base64Decode(base64Encode(part)), part);
    EXPECT_EQ(base64UrlDecode(base64UrlEncode(part)), part);
  }
  // Longer than one chunk of EVP_EncodeBlock/EVP_DecodeBlock, and not a whole number of them.
  std::string large;
  for (std::size_t i = 0; i < 3 * (std::size_t{1} << 20) + 5; ++i) large.push_back(static_cast<char>(i * 7 + i / 251));
  std::string text = base64Encode(large);
  EXPECT_EQ(text.size(), (large.size() + 2) / 3 * 4);
  EXPECT_EQ(base64Decode(text), large);
}

TEST(Base64, StrictRefusesAllButTheCanonicalForm) {
  for (const char* bad :
       {"Zg", "Zg=", "Zg===", "Z===", "====", "Zg=A", "=Zg=", "Zm9v Zg==", "Zm9v\n", "Zm9v!A==", "Zm9-", "Zm9_",
        "Zh==",   // the 4 unused bits set
        "Zm9="})  // the 2 unused bits set
    EXPECT_FALSE(base64Decode(bad).has_value()) << bad;
}

TEST(Base64, LenientSkipsWhitespaceAndUnusedBitsButWantsPadding) {
  EXPECT_EQ(base64DecodeLenient("Zm9v\r\nYmFy\n"), "foobar");
  EXPECT_EQ(base64DecodeLenient(" Zm 9v\tYg= =\n"), "foob");
  EXPECT_EQ(base64DecodeLenient("Zh=="), "f");
  EXPECT_EQ(base64DecodeLenient(""), "");
  for (const char* bad : {"Zm9vYg", "Zm9vY", "Zg=", "Z===", "====", "Zg=A", "Zm9v!A==", "Zm-v"})
    EXPECT_FALSE(base64DecodeLenient(bad).has_value()) << bad;
}

TEST(Base64Url, UnpaddedWithUrlAlphabet) {
  EXPECT_EQ(base64UrlEncode("\xfb\xff"), "-_8");
  EXPECT_EQ(base64UrlEncode("\xfb\xff\xfe"), "-__-");
  for (const auto& [bytes, text] : kBase64Vectors) {
    std::string unpadded = text.substr(0, text.find('='));
    EXPECT_EQ(base64UrlEncode(bytes), unpadded);
    EXPECT_EQ(base64UrlDecode(unpadded), bytes) << unpadded;
  }
  EXPECT_EQ(base64UrlDecode("-__-"), "\xfb\xff\xfe");
}

TEST(Base64Url, RefusesPaddingStandardAlphabetAndLeftoverBits) {
  for (const char* bad : {"Zg==", "Zm9=", "Z", "Zm9vY", "Zh", "Zm9", "+/8", "Zm9v YmFy", "Zm9v\n", "Zm.v"})
    EXPECT_FALSE(base64UrlDecode(bad).has_value()) << bad;
}

TEST(Hex, Rfc4648Base16Vectors) {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""},
      {"f", "66"},
      {"fo", "666F"},
      {"foo", "666F6F"},
      {"foob", "666F6F62"},
      {"fooba", "666F6F6261"},
      {"foobar", "666F6F626172"},
  };
  for (const auto& [bytes, upper] : vectors) {
    std::string lower = upper;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(hexEncode(bytes), lower);
    EXPECT_EQ(hexDecode(upper), bytes);
    EXPECT_EQ(hexDecode(lower), bytes);
  }
  EXPECT_EQ(hexEncode(std::string("\x00\x0f\xf0\xff", 4)), "000ff0ff");
  EXPECT_EQ(hexDecode(hexEncode(allBytes())), allBytes());
}

TEST(Hex, RefusesOddLengthAndNonHex) {
  for (const char* bad : {"6", "666", "6g", "zz", "0x66", " 66", "66 "})
    EXPECT_FALSE(hexDecode(bad).has_value()) << bad;
}

TEST(Percent, EncodesAllButUnreservedWithUpperCaseHex) {
  EXPECT_EQ(percentEncode("AZaz09-._~"), "AZaz09-._~");
  EXPECT_EQ(percentEncode("a b/c?d=e&f+g%\xc3\xbc"), "a%20b%2Fc%3Fd%3De%26f%2Bg%25%C3%BC");
  EXPECT_EQ(percentEncode("/tmp/docs pg"), "%2Ftmp%2Fdocs%20pg");
  EXPECT_EQ(percentEncode("a b+c", PercentStyle::Form), "a+b%2Bc");
  EXPECT_EQ(percentEncode(""), "");
}

TEST(Percent, DecodesEitherCaseAndPlusOnlyInForm) {
  EXPECT_EQ(percentDecode("%41%62%2f%2F"), "Ab//");
  EXPECT_EQ(percentDecode("a+b"), "a+b");
  EXPECT_EQ(percentDecode("a+b%2B", PercentStyle::Form), "a b+");
  EXPECT_EQ(percentDecode("%00"), std::string(1, '\0'));
  for (auto style : {PercentStyle::Unreserved, PercentStyle::Form}) {
    EXPECT_EQ(percentDecode(percentEncode(allBytes(), style), style), allBytes());
    EXPECT_EQ(percentDecode(percentEncode("a b+c", style), style), "a b+c");
  }
}

TEST(Percent, RefusesTruncatedAndNonHexEscapes) {
  for (const char* bad : {"%zz", "%4", "%", "a%", "a%4", "%4g", "%g4", "%%41"})
    EXPECT_FALSE(percentDecode(bad).has_value()) << bad;
}

TEST(Sha256, Fips180Vectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(sha256("abc"), unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

TEST(HmacSha256, Rfc4231Vectors) {
  struct Case {
    std::string key, data, mac;
  };
  const std::vector<Case> cases = {
      {std::string(20, '\x0b'), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
      {"Jefe", "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
      {std::string(20, '\xaa'), std::string(50, '\xdd'),
       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
      {unhex("0102030405060708090a0b0c0d0e0f10111213141516171819"), std::string(50, '\xcd'),
       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
      {std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First",
       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
      {std::string(131, '\xaa'),
       "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
       "hashed before being used by the HMAC algorithm.",
       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
  };
  for (const auto& c : cases) EXPECT_EQ(hexEncode(hmacSha256(c.key, c.data)), c.mac) << c.data;
  EXPECT_EQ(hmacSha256("", "").size(), 32u);
  // In pieces, as a body arrives: the same MAC whatever the cut.
  for (const auto& c : cases)
    for (std::size_t cut : {std::size_t(0), c.data.size() / 3, c.data.size()}) {
      HmacSha256 stream(c.key);
      stream.update(std::string_view(c.data).substr(0, cut));
      stream.update(std::string_view(c.data).substr(cut));
      EXPECT_EQ(hexEncode(stream.finish()), c.mac) << c.data << " cut at " << cut;
    }
}

TEST(ConstantTimeEqual, ComparesSizeAndEveryByte) {
  EXPECT_TRUE(constantTimeEqual("abc", "abc"));
  EXPECT_TRUE(constantTimeEqual("", ""));
  EXPECT_FALSE(constantTimeEqual("abc", "abd"));
  EXPECT_FALSE(constantTimeEqual("abc", "abcd"));
  EXPECT_FALSE(constantTimeEqual(std::string("a\0b", 3), std::string("a\0c", 3)));
}

TEST(Random, BytesAndHexOfTheAskedSize) {
  EXPECT_EQ(randomBytes(0), "");
  EXPECT_EQ(randomBytes(33).size(), 33u);
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string id = randomHex(8);
    ASSERT_EQ(id.size(), 16u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 100u);
}
