// The relay's messages between nodes: what is encoded decodes back,
// a batch too big for one notification becomes a range of log ids, and anything malformed
// is ignored or refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "relay.hpp"

namespace relay = docs_collab::relay;
using nlohmann::json;

namespace {

relay::Origin origin() { return {7, 42, "0badc0de12345678"}; }

TEST(Relay, RoomNoticesRoundTrip) {
  for (bool open : {true, false})
    for (bool reply : {true, false}) {
      auto decoded = relay::decodeRoom(relay::encode(relay::RoomNotice{origin(), open, reply}));
      ASSERT_TRUE(decoded);
      EXPECT_EQ(decoded->origin.projectId, 7);
      EXPECT_EQ(decoded->origin.pageId, 42);
      EXPECT_EQ(decoded->origin.node, "0badc0de12345678");
      EXPECT_EQ(decoded->open, open);
      EXPECT_EQ(decoded->reply, reply);
    }
}

TEST(Relay, SmallBatchesTravelInlineWithEveryByte) {
  std::string binary("\x00\x01\xff\x80zz", 6);
  std::vector<std::string_view> updates = {binary, "second"};
  auto notice = relay::updatesNotice(origin(), updates, {10, 11});
  ASSERT_EQ(notice.updates.size(), 2u);
  auto decoded = relay::decodeUpdates(relay::encode(notice));
  ASSERT_TRUE(decoded);
  ASSERT_EQ(decoded->updates.size(), 2u);
  EXPECT_EQ(decoded->updates[0], binary);
  EXPECT_EQ(decoded->updates[1], "second");
}

TEST(Relay, TheSendTimeTravelsForTheLagMetric) {
  std::vector<std::string_view> updates = {"u"};
  auto notice = relay::updatesNotice(origin(), updates, {5});
  EXPECT_EQ(relay::decodeUpdates(relay::encode(notice))->sentMs, 0);  // a catch-up: not timed
  notice.sentMs = 1764150000123;
  auto encoded = relay::encode(notice);
  EXPECT_EQ(relay::decodeUpdates(encoded)->sentMs, 1764150000123);
  encoded["sent_ms"] = "soon";  // not a number: the updates still apply, untimed
  ASSERT_TRUE(relay::decodeUpdates(encoded));
  EXPECT_EQ(relay::decodeUpdates(encoded)->sentMs, 0);
}

TEST(Relay, BigBatchesBecomeARangeThatFitsANotification) {
  std::string big(relay::kMaxInlineChars / 2, 'x');
  std::vector<std::string_view> updates = {"a", big, "b"};
  auto notice = relay::updatesNotice(origin(), updates, {30, 31, 29});
  EXPECT_TRUE(notice.updates.empty());
  EXPECT_EQ(notice.fromId, 29);
  EXPECT_EQ(notice.toId, 31);
  auto decoded = relay::decodeUpdates(relay::encode(notice));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->fromId, 29);
  EXPECT_EQ(decoded->toId, 31);
  // The largest inline batch still fits PostgreSQL's NOTIFY limit with the bus envelope.
  std::string edge(relay::kMaxInlineChars / 2 - 8, 'y');
  auto inlined = relay::updatesNotice(origin(), {edge}, {1});
  ASSERT_EQ(inlined.updates.size(), 1u);
  json envelope = {{"node", "0123456789abcdef0123456789abcdef"},
                   {"topic", relay::kUpdatesTopic},
                   {"payload", relay::encode(inlined)}};
  EXPECT_LT(envelope.dump().size(), 7900u);
}

TEST(Relay, AwarenessRoundTrips) {
  std::string update("\x01\x05\x02{}", 5);
  auto decoded = relay::decodeAwareness(relay::encode(relay::AwarenessNotice{origin(), update}));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->update, update);
}

TEST(Relay, MalformedMessagesAreIgnored) {
  auto good = relay::encode(relay::RoomNotice{origin(), true, false});
  EXPECT_TRUE(relay::decodeRoom(good));
  for (const char* key : {"project_id", "page_id", "node", "open"}) {
    auto broken = good;
    broken.erase(key);
    EXPECT_FALSE(relay::decodeRoom(broken)) << key;
  }
  auto negative = good;
  negative["page_id"] = -1;
  EXPECT_FALSE(relay::decodeRoom(negative));
  auto textId = good;
  textId["project_id"] = "7";
  EXPECT_FALSE(relay::decodeRoom(textId));
  EXPECT_FALSE(relay::decodeRoom(json::array()));
  EXPECT_FALSE(relay::decodeRoom(json("text")));

  auto updates = relay::encode(relay::updatesNotice(origin(), {"abc"}, {5}));
  auto badHex = updates;
  badHex["updates"][0] = "\\xzz";
  EXPECT_FALSE(relay::decodeUpdates(badHex));
  auto noPrefix = updates;
  noPrefix["updates"][0] = "616263";
  EXPECT_FALSE(relay::decodeUpdates(noPrefix));
  auto empty = updates;
  empty["updates"] = json::array();
  EXPECT_FALSE(relay::decodeUpdates(empty));
  auto backwards = relay::encode(relay::UpdatesNotice{origin(), {}, 9, 3, 0});
  EXPECT_FALSE(relay::decodeUpdates(backwards));
  auto neither = updates;
  neither.erase("updates");
  EXPECT_FALSE(relay::decodeUpdates(neither));

  auto awareness = relay::encode(relay::AwarenessNotice{origin(), "x"});
  awareness["update"] = "\\x";
  EXPECT_FALSE(relay::decodeAwareness(awareness));
}

}  // namespace
