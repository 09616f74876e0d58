#include <gtest/gtest.h>

#include "docs/ydoc/error.hpp"
#include "docs/ydoc/update.hpp"
#include "test_util.hpp"

namespace docs::ydoc {
namespace {

using test::fromHex;
using test::toHex;

// COLLAB-NOTES 1.3: <paragraph>Hi</paragraph> in fragment "default".
const char* kParagraphHi =
    "01 03 01 00 07 01 07 64656661756c74 03 09 706172616772617068 07 00 01 00 06 04 00 01 01 02 4869 00";
// COLLAB-NOTES 1.3: appending "!" with origin (1,3).
const char* kAppendBang = "01 01 02 00 84 01 03 01 21 00";

TEST(Update, DecodesGoldenParagraph) {
  const Bytes bytes = fromHex(kParagraphHi);
  ASSERT_EQ(bytes.size(), 38u);
  const DecodedUpdate u = decodeUpdate(bytes);
  ASSERT_EQ(u.structs.size(), 3u);
  EXPECT_EQ(u.structs[0].id, (Id{1, 0}));
  EXPECT_EQ(u.structs[0].parent.kind, ParentRef::Kind::Root);
  EXPECT_EQ(u.structs[0].parent.rootName, "default");
  const auto& ct = std::get<ContentType>(u.structs[0].content);
  EXPECT_EQ(ct.ref, TypeRef::XmlElement);
  EXPECT_EQ(ct.name, "paragraph");
  EXPECT_EQ(std::get<ContentType>(u.structs[1].content).ref, TypeRef::XmlText);
  EXPECT_EQ(u.structs[1].parent.kind, ParentRef::Kind::Item);
  EXPECT_EQ(u.structs[2].length, 2u);
  EXPECT_EQ(std::get<ContentString>(u.structs[2].content).str, u"Hi");
  EXPECT_TRUE(u.deleteSet.clients.empty());
  EXPECT_EQ(toHex(encodeUpdate(u)), toHex(bytes));
}

TEST(Update, StateVectorFromUpdate) {
  const Bytes sv = encodeStateVectorFromUpdate(fromHex(kParagraphHi));
  EXPECT_EQ(toHex(sv), "010104");  // {1: 4}, as in the captured SyncStep1
}

TEST(Update, MergeAppendsAndDiffRemoves) {
  const Bytes a = fromHex(kParagraphHi);
  const Bytes b = fromHex(kAppendBang);
  const Bytes merged = mergeUpdates({a, b});
  // the browser's edit is client 2, clock 0, origin (1,3)
  EXPECT_EQ(toHex(encodeStateVectorFromUpdate(merged)), "0202010104");
  const Bytes diff = diffUpdate(merged, fromHex("010104"));
  EXPECT_EQ(toHex(diff), toHex(b));
  const Bytes none = diffUpdate(merged, fromHex("0202010104"));
  EXPECT_EQ(toHex(none), "0000");
}

TEST(Update, MergeWithGapInsertsSkip) {
  const Bytes b = fromHex(kAppendBang);
  const Bytes a = fromHex(kParagraphHi);
  // merging the later update alone with an unrelated empty update keeps it
  const Bytes merged = mergeUpdates({b, fromHex("0000")});
  EXPECT_EQ(toHex(merged), toHex(b));
  EXPECT_EQ(toHex(encodeStateVectorFromUpdate(b)), "010201");
  // a client whose first struct does not start at clock 0 contributes nothing
  EXPECT_EQ(toHex(encodeStateVectorFromUpdate(diffUpdate(a, fromHex("010101")))), "00");
  EXPECT_EQ(toHex(mergeUpdates({b, a})), toHex(mergeUpdates({a, b})));
}

TEST(Update, ContainsCheck) {
  const Bytes a = fromHex(kParagraphHi);
  StateVector sv{{1, 4}};
  EXPECT_TRUE(snapshotContainsUpdate(sv, {}, a));
  EXPECT_FALSE(snapshotContainsUpdate(sv, {}, fromHex(kAppendBang)));
}

TEST(Update, TruncatedInputIsAnError) {
  const Bytes a = fromHex(kParagraphHi);
  for (size_t n = 0; n < a.size(); ++n) {
    const Bytes cut(a.begin(), a.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_THROW(decodeUpdate(cut), DecodeError) << n;
  }
}

TEST(Update, UnknownContentRefIsAnError) {
  Bytes a = fromHex(kParagraphHi);
  a[4] = 0x0F;  // first struct's info byte: content ref 15
  EXPECT_THROW(decodeUpdate(a), DecodeError);
}

TEST(Update, HugeCountsDoNotAllocate) {
  // numClients = 2^50 must fail fast instead of reserving memory
  const Bytes a = fromHex("80808080808080 01");
  EXPECT_THROW(decodeUpdate(a), DecodeError);
}

}  // namespace
}  // namespace docs::ydoc
