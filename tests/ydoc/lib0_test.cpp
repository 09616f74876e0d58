#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "docs/ydoc/any.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/lib0.hpp"
#include "docs/ydoc/utf.hpp"
#include "test_util.hpp"

namespace docs::ydoc {
namespace {

using test::fromHex;
using test::toHex;

TEST(Lib0, VarUintRoundTrip) {
  for (uint64_t v : {0ULL, 1ULL, 127ULL, 128ULL, 300ULL, 0xFFFFFFFFULL, (1ULL << 53) - 1}) {
    Encoder enc;
    enc.writeVarUint(v);
    Decoder dec(enc.bytes());
    EXPECT_EQ(dec.readVarUint(), v);
    EXPECT_FALSE(dec.hasContent());
  }
}

TEST(Lib0, VarUintKnownBytes) {
  Encoder enc;
  enc.writeVarUint(300);
  EXPECT_EQ(toHex(enc.bytes()), "ac02");
}

TEST(Lib0, VarIntKnownBytes) {
  Encoder enc;
  enc.writeVarInt(1);
  enc.writeVarInt(-1);
  enc.writeVarInt(64);
  EXPECT_EQ(toHex(enc.bytes()), "01418001");
  Decoder dec(enc.bytes());
  EXPECT_EQ(dec.readVarInt(), 1);
  EXPECT_EQ(dec.readVarInt(), -1);
  EXPECT_EQ(dec.readVarInt(), 64);
}

TEST(Lib0, VarUintPast64BitsIsAnError) {
  const Bytes bytes(12, 0xFF);
  Decoder dec(bytes);
  EXPECT_THROW(dec.readVarUint(), DecodeError);
}

TEST(Lib0, TruncatedVarUintIsAnError) {
  const Bytes bytes{0x80, 0x80};
  Decoder dec(bytes);
  EXPECT_THROW(dec.readVarUint(), DecodeError);
}

TEST(Lib0, StringLengthBeyondBufferIsAnError) {
  const Bytes bytes{0x7F, 'a', 'b'};
  Decoder dec(bytes);
  EXPECT_THROW(dec.readVarString(), DecodeError);
}

TEST(Lib0, InvalidUtf8IsAnError) {
  const Bytes bytes{0x02, 0xC3, 0x28};
  Decoder dec(bytes);
  EXPECT_THROW(dec.readVarString(), DecodeError);
}

TEST(Lib0, Utf16Length) {
  EXPECT_EQ(utf16Length("a\xF0\x9F\x98\x80"), 3u);  // 'a' + one astral char (surrogate pair)
  EXPECT_EQ(utf8ToUtf16("\xC3\xA9").size(), 1u);
  EXPECT_EQ(utf16ToUtf8(u"\xD83D"), "\xEF\xBF\xBD");  // lone surrogate -> U+FFFD
}

TEST(Lib0, AnyEncodingsMatchLib0) {
  const auto enc = [](const Any& a) {
    Encoder e;
    writeAny(e, a);
    return toHex(e.bytes());
  };
  EXPECT_EQ(enc(Any(1.0)), "7d01");
  EXPECT_EQ(enc(Any(AnyNull{})), "7e");
  EXPECT_EQ(enc(Any(AnyUndefined{})), "7f");
  EXPECT_EQ(enc(Any(true)), "78");
  EXPECT_EQ(enc(Any(false)), "79");
  EXPECT_EQ(enc(Any(std::string("hi"))), "77026869");
  EXPECT_EQ(enc(Any(0.5)), "7c3f000000");           // float32 round-trips
  EXPECT_EQ(enc(Any(0.1)), "7b3fb999999999999a");   // needs float64
  EXPECT_EQ(enc(Any(4294967296.0)), "7c4f800000");  // integer beyond 31 bits -> float
  EXPECT_EQ(enc(Any(AnyBigInt{1})), "7a0000000000000001");
  EXPECT_EQ(enc(Any(AnyArray{Any(1.0)})), "75017d01");
  EXPECT_EQ(enc(Any(AnyObject{{"level", Any(1.0)}})), "7601056c6576656c7d01");
  EXPECT_EQ(enc(Any(Bytes{1, 2})), "74020102");
}

TEST(Lib0, AnyRoundTrip) {
  const Any value(AnyObject{
      {"a", Any(AnyArray{Any(1.5), Any(std::string("x")), Any(AnyNull{})})}, {"b", Any(Bytes{9})}, {"c", Any(-7.0)}});
  Encoder e;
  writeAny(e, value);
  Decoder d(e.bytes());
  EXPECT_EQ(readAny(d), value);
}

TEST(Lib0, AnyObjectKeysFollowJsOrder) {
  AnyObject o{{"b", Any(1.0)}, {"2", Any(2.0)}, {"1", Any(3.0)}};
  normaliseKeyOrder(o);
  EXPECT_EQ(o[0].first, "1");
  EXPECT_EQ(o[1].first, "2");
  EXPECT_EQ(o[2].first, "b");
}

TEST(Lib0, DeeplyNestedAnyIsAnError) {
  Bytes bytes;
  for (int i = 0; i < 10000; ++i) {
    bytes.push_back(117);
    bytes.push_back(1);
  }
  bytes.push_back(126);
  Decoder d(bytes);
  EXPECT_THROW(readAny(d), DecodeError);
}

TEST(Lib0, JsStringifyNumbers) {
  EXPECT_EQ(jsStringify(Json::parse("[1, 1.5, 1e21, 0.000001, 1e-7, 100]")), "[1,1.5,1e+21,0.000001,1e-7,100]");
}

}  // namespace
}  // namespace docs::ydoc
