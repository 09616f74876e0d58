#include <gtest/gtest.h>

#include "docs/ydoc/doc.hpp"
#include "docs/ydoc/error.hpp"
#include "test_util.hpp"

namespace docs::ydoc {
namespace {

using test::fromHex;
using test::toHex;

const char* kParagraphHi =
    "01 03 01 00 07 01 07 64656661756c74 03 09 706172616772617068 07 00 01 00 06 04 00 01 01 02 4869 00";
const char* kAppendBang = "01 01 02 00 84 01 03 01 21 00";

TEST(Doc, ApplyAndEncodeRoundTrip) {
  Doc doc(99);
  doc.applyUpdate(fromHex(kParagraphHi));
  EXPECT_EQ(toHex(doc.encodeStateAsUpdate()), toHex(fromHex(kParagraphHi)));
  EXPECT_EQ(toHex(doc.encodeStateVector()), "010104");
}

TEST(Doc, AppendMergesWithPreviousText) {
  Doc doc(99);
  doc.applyUpdate(fromHex(kParagraphHi));
  doc.applyUpdate(fromHex(kAppendBang));
  const auto& structs = doc.clients().at(2);
  ASSERT_EQ(structs.size(), 1u);
  EXPECT_EQ(std::get<ContentString>(structs[0]->content).str, u"!");
  EXPECT_EQ(structs[0]->left, doc.clients().at(1)[2]);
}

TEST(Doc, OutOfOrderUpdatesWaitAsPending) {
  Doc doc(99);
  doc.applyUpdate(fromHex(kAppendBang));
  EXPECT_TRUE(doc.hasPending());
  EXPECT_EQ(toHex(doc.encodeStateVector()), "00");
  doc.applyUpdate(fromHex(kParagraphHi));
  EXPECT_FALSE(doc.hasPending());
  EXPECT_EQ(toHex(doc.encodeStateVector()), "0202010104");
}

TEST(Doc, DeleteParagraphCollectsChildren) {
  Doc doc(99);
  doc.applyUpdate(fromHex(kParagraphHi));
  // delete set: client 1, one range (0, 1) -> the paragraph element
  doc.applyUpdate(fromHex("00 01 01 01 00 01"));
  const auto& structs = doc.clients().at(1);
  ASSERT_EQ(structs.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<ContentDeleted>(structs[0]->content));
  EXPECT_TRUE(structs[1]->isGc);
  EXPECT_EQ(structs[1]->length, 3u);
  // element as ContentDeleted(1), children as one GC struct, ranges in the delete set
  EXPECT_EQ(toHex(doc.encodeStateAsUpdate()), "0102010001010764656661756c740100030101010004");
}

TEST(Doc, DeleteSetForUnknownItemsIsPending) {
  Doc doc(99);
  doc.applyUpdate(fromHex("00 01 07 01 00 05"));
  EXPECT_TRUE(doc.hasPending());
  EXPECT_EQ(toHex(doc.encodeStateAsUpdate()), "000107010005");
}

}  // namespace
}  // namespace docs::ydoc
