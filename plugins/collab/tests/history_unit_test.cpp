// Page history's pure parts: the thinning policy and the document diff.
#include <gtest/gtest.h>

#include <algorithm>

#include "history_diff.hpp"
#include "history_store.hpp"
#include "history_thinning.hpp"

using docs_collab::ThinningCandidate;
using nlohmann::json;

namespace {

constexpr std::int64_t kHour = 3600, kDay = 24 * kHour;
constexpr std::int64_t kNow = 1'700'000'000 - 1'700'000'000 % kDay + 12 * kHour;  // noon

json paragraph(const std::string& text) {
  return {{"type", "paragraph"}, {"content", {{{"type", "text"}, {"text", text}}}}};
}
json heading(const std::string& text) {
  return {{"type", "heading"}, {"attrs", {{"level", 1}}}, {"content", {{{"type", "text"}, {"text", text}}}}};
}
json doc(std::vector<json> blocks) { return {{"type", "doc"}, {"content", blocks}}; }

bool dropped(const std::vector<std::int64_t>& ids, std::int64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST(HistoryThinning, KeepsTheLastDayHourlyForAWeekDailyAfterAndEveryLabelledVersion) {
  std::vector<ThinningCandidate> versions;
  std::int64_t id = 0;
  // Every 10 minutes for 10 days, ids rising with time.
  for (std::int64_t at = kNow - 10 * kDay; at <= kNow; at += 600) versions.push_back({++id, at, false});
  versions.push_back({++id, kNow - 9 * kDay + 60, true});  // labelled, old
  versions.push_back({++id, kNow - 3 * kDay + 60, true});  // labelled, this week
  auto drop = docs_collab::versionsToThin(versions, kNow);
  std::map<std::int64_t, int> keptPerHour, keptPerDay;
  int keptLastDay = 0, lastDay = 0;
  for (const auto& v : versions) {
    bool gone = dropped(drop, v.id);
    if (v.labelled) {
      EXPECT_FALSE(gone) << "labelled " << v.id;
      continue;
    }
    std::int64_t age = kNow - v.createdAtUnix;
    if (age < kDay) {
      ++lastDay;
      keptLastDay += !gone;
    } else if (age < 7 * kDay) {
      if (!gone) ++keptPerHour[v.createdAtUnix / kHour];
    } else if (!gone) {
      ++keptPerDay[v.createdAtUnix / kDay];
    }
  }
  EXPECT_EQ(keptLastDay, lastDay);  // all of the last day
  for (const auto& [hour, kept] : keptPerHour) EXPECT_EQ(kept, 1) << "hour " << hour;
  EXPECT_GE(keptPerHour.size(), 6u * 24 - 1);
  for (const auto& [day, kept] : keptPerDay) EXPECT_EQ(kept, 1) << "day " << day;
  EXPECT_GE(keptPerDay.size(), 3u);
  // The newest of a bucket is the one kept.
  auto newestOfHour = kNow - 2 * kDay - (kNow - 2 * kDay) % kHour + kHour - 600;
  for (const auto& v : versions) {
    if (v.createdAtUnix == newestOfHour) {
      EXPECT_FALSE(dropped(drop, v.id));
    }
  }
  // Thinning what it kept drops nothing more.
  std::vector<ThinningCandidate> kept;
  for (const auto& v : versions)
    if (!dropped(drop, v.id)) kept.push_back(v);
  EXPECT_TRUE(docs_collab::versionsToThin(kept, kNow).empty());
}

TEST(HistoryDiff, BlocksAddedRemovedAndChangedWithTheWordsInside) {
  auto before = doc({heading("Title"), paragraph("alpha beta gamma"), paragraph("to be removed"), paragraph("kept")});
  auto after = doc({heading("Title"), paragraph("alpha delta gamma"), paragraph("kept"), paragraph("brand new")});
  auto diff = docs_collab::diffDocuments(before, after);
  EXPECT_EQ(diff["added"], 1) << diff.dump(1);
  EXPECT_EQ(diff["removed"], 1) << diff.dump(1);
  EXPECT_EQ(diff["changed"], 1) << diff.dump(1);
  // Two paragraphs gave way to one: the first pair reads as changed, the other as removed.
  const auto& blocks = diff["blocks"];
  std::vector<std::string> changes;
  for (const auto& block : blocks) changes.push_back(block["change"]);
  EXPECT_EQ(changes, (std::vector<std::string>{"same", "changed", "removed", "same", "added"}));
  EXPECT_EQ(blocks[2]["block"]["content"][0]["text"], "to be removed");
  EXPECT_EQ(blocks[4]["block"]["content"][0]["text"], "brand new");
  json runs = blocks[1]["text"];
  EXPECT_EQ(
      runs,
      json::parse(
          R"([{"op":"equal","text":"alpha "},{"op":"delete","text":"beta"},{"op":"insert","text":"delta"},{"op":"equal","text":" gamma"}])"))
      << runs.dump();
}

TEST(HistoryDiff, APureRemovalAndAPureAdditionAreNotPaired) {
  auto before = doc({paragraph("one"), heading("gone")});
  auto after = doc({paragraph("one"), paragraph("two")});
  auto diff = docs_collab::diffDocuments(before, after);
  EXPECT_EQ(diff["added"], 1);
  EXPECT_EQ(diff["removed"], 1);
  EXPECT_EQ(diff["changed"], 0);
  auto same = docs_collab::diffDocuments(before, before);
  EXPECT_EQ(same["added"], 0);
  EXPECT_EQ(same["removed"], 0);
  EXPECT_EQ(same["changed"], 0);
  EXPECT_EQ(same["blocks"].size(), 2u);
}

TEST(HistoryDiff, TextOfNestedBlocks) {
  json list = {
      {"type", "bulletList"},
      {"content",
       {{{"type", "listItem"}, {"content", {paragraph("a")}}}, {{"type", "listItem"}, {"content", {paragraph("b")}}}}}};
  EXPECT_EQ(docs_collab::blockText(list), "a\nb");
  EXPECT_EQ(docs_collab::diffText("", "x y")[0]["op"], "insert");
}

TEST(HistoryStore, IdArrays) {
  EXPECT_EQ(docs_collab::parseIdArray("{}"), std::vector<std::int64_t>{});
  EXPECT_EQ(docs_collab::parseIdArray("{3,10,42}"), (std::vector<std::int64_t>{3, 10, 42}));
  EXPECT_EQ(docs_collab::idArrayText({3, 10}), "{3,10}");
}
