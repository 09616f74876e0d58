#include <gtest/gtest.h>

#include <random>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "docs/ydoc/prosemirror.hpp"
#include "docs/ydoc/update.hpp"
#include "test_util.hpp"

namespace docs::ydoc {
namespace {

using test::fromHex;

const char* kParagraphHi = "0103010007010764656661756c74030970617261677261706807000100060400010102486900";

TEST(Robustness, TruncatedUpdatesNeverCrashTheDoc) {
  const Bytes a = fromHex(kParagraphHi);
  for (size_t n = 0; n < a.size(); ++n) {
    Doc doc(1);
    EXPECT_THROW(doc.applyUpdate(std::span<const uint8_t>(a.data(), n)), YdocError) << n;
  }
}

TEST(Robustness, ClientAndClockOutOfRange) {
  // one struct for client 2^60 (beyond 53 bits)
  EXPECT_THROW(decodeUpdate(fromHex("01 01 8080808080808080 10 00 04 01 01")), DecodeError);
  // a struct whose clock + length leaves the safe integer range
  EXPECT_THROW(decodeUpdate(fromHex("01 01 01 ffffffffffffff0f 00 05")), DecodeError);
}

TEST(Robustness, OriginPointingNowhereIsAnError) {
  Doc doc(1);
  // client 1 clock 0 item with origin (1, 5): refers to its own future
  EXPECT_THROW(doc.applyUpdate(fromHex("01 01 01 00 84 01 05 01 61 00")), InvalidUpdateError);
}

TEST(Robustness, DeleteSetForUnknownItemsIsKeptPending) {
  Doc doc(1);
  doc.applyUpdate(fromHex("00 01 09 02 00 03 0a 01"));
  EXPECT_TRUE(doc.hasPending());
  doc.applyUpdate(fromHex(kParagraphHi));
  EXPECT_EQ(toProseMirrorJson(doc)["content"].size(), 1u);
}

TEST(Robustness, ZeroLengthStructsAreRefused) {
  EXPECT_THROW(decodeUpdate(fromHex("01 01 01 00 04 01 07 64656661756c74 00 00")), DecodeError);
}

TEST(Robustness, DeepNestingIsRefused) {
  // 600 nested XmlElements, each the first child of the previous one
  Encoder enc;
  const int depth = 600;
  enc.writeVarUint(1);
  enc.writeVarUint(depth);
  enc.writeVarUint(1);
  enc.writeVarUint(0);
  for (int i = 0; i < depth; ++i) {
    enc.writeUint8(7);  // ContentType, no origins
    if (i == 0) {
      enc.writeVarUint(1);
      enc.writeVarString("default");
    } else {
      enc.writeVarUint(0);
      enc.writeVarUint(1);
      enc.writeVarUint(static_cast<uint64_t>(i - 1));
    }
    enc.writeVarUint(3);
    enc.writeVarString("blockquote");
  }
  enc.writeVarUint(0);
  Doc doc(2);
  EXPECT_THROW(doc.applyUpdate(enc.bytes()), InvalidUpdateError);
}

TEST(Robustness, RandomBytesNeverCrash) {
  std::mt19937 rng(42);
  const Bytes seed = fromHex(kParagraphHi);
  for (int i = 0; i < 20000; ++i) {
    Bytes b = seed;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) b[rng() % b.size()] = static_cast<uint8_t>(rng());
    try {
      Doc doc(1);
      doc.applyUpdate(b);
      (void)doc.encodeStateAsUpdate();
      (void)toProseMirrorJson(doc);
      (void)mergeUpdates({b, seed});
    } catch (const YdocError&) {
    }
  }
  SUCCEED();
}

}  // namespace
}  // namespace docs::ydoc
