// mcp.sessions_per_minute: counted per address and minute, bounded in memory without ever
// handing everyone a fresh allowance (issue 33 item 9: the map was cleared at 100,000).
#include <gtest/gtest.h>

#include <string>

#include "session_openings.hpp"

using docs_mcp::SessionOpenings;

TEST(SessionOpenings, EachAddressHasItsAllowancePerMinute) {
  SessionOpenings opened(2);
  EXPECT_TRUE(opened.allow("198.51.100.1", 7));
  EXPECT_TRUE(opened.allow("198.51.100.1", 7));
  EXPECT_FALSE(opened.allow("198.51.100.1", 7));
  EXPECT_TRUE(opened.allow("198.51.100.2", 7));
  EXPECT_TRUE(opened.allow("198.51.100.1", 8));  // a new minute
}

TEST(SessionOpenings, AFloodOfAddressesResetsNobodysCount) {
  SessionOpenings opened(2, 4);
  EXPECT_TRUE(opened.allow("victim", 7));
  EXPECT_TRUE(opened.allow("victim", 7));
  EXPECT_FALSE(opened.allow("victim", 7));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(opened.allow("flood" + std::to_string(i), 7));
  // Full for this minute: a fifth address waits, and the spent allowance stays spent.
  EXPECT_FALSE(opened.allow("flood-more", 7));
  EXPECT_FALSE(opened.allow("victim", 7));
  EXPECT_EQ(opened.tracked(), 4u);
  // The next minute's first new address makes room by dropping the spent minute's counts.
  EXPECT_TRUE(opened.allow("newcomer", 8));
  EXPECT_EQ(opened.tracked(), 1u);
  EXPECT_TRUE(opened.allow("victim", 8));
}

TEST(SessionOpenings, NoLimitCountsNothing) {
  SessionOpenings opened(0, 1);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(opened.allow("a" + std::to_string(i), 1));
  EXPECT_EQ(opened.tracked(), 0u);
}
