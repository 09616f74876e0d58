#include <gtest/gtest.h>

#include <thread>

#include "db/pg_pool.hpp"
#include "test_support.hpp"

class PgPoolTest : public ::testing::Test {
 protected:
  docs::test::TestDatabase database_;
};

TEST_F(PgPoolTest, ParametersAreNeverSpliced) {
  docs::core::PgPool pool({database_.url(), 2, 30000});
  pool.exec("CREATE TABLE t (name text)");
  std::string hostile = "x'); DROP TABLE t; --";
  pool.exec("INSERT INTO t VALUES ($1)", {hostile});
  auto rows = pool.exec("SELECT name FROM t WHERE name = $1", {hostile});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].text("name"), hostile);
  EXPECT_TRUE(pool.exec("SELECT $1::text AS v", {docs::Param()})[0].isNull("v"));
}

TEST_F(PgPoolTest, RowsOutliveTheirResult) {
  docs::core::PgPool pool({database_.url(), 1, 30000});
  auto row = pool.exec("SELECT 'kept' AS v")[0];
  EXPECT_EQ(row.text("v"), "kept");
}

TEST_F(PgPoolTest, StatementTimeoutIsAnError) {
  docs::core::PgPool pool({database_.url(), 1, /*statementTimeoutMs=*/200});
  try {
    pool.exec("SELECT pg_sleep(2)");
    FAIL() << "expected a timeout";
  } catch (const docs::DbError& error) {
    EXPECT_EQ(error.sqlState(), "57014") << error.what();
  }
  EXPECT_EQ(pool.exec("SELECT 1 AS one")[0].int64("one"), 1) << "the connection stays usable";
}

TEST_F(PgPoolTest, ABrokenConnectionIsReplaced) {
  docs::core::PgPool pool({database_.url(), 1, 30000});
  auto pid = pool.exec("SELECT pg_backend_pid() AS pid")[0].int64("pid");
  docs::core::PgPool killer({database_.url(), 1, 30000});
  killer.exec("SELECT pg_terminate_backend($1)", {pid});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The first use of the dead connection fails with a connection error...
  try {
    pool.exec("SELECT 1");
  } catch (const docs::DbError& error) {
    EXPECT_TRUE(error.connectionLost() || error.sqlState() == "57P01") << error.sqlState() << " " << error.what();
  }
  // ...and the pool reconnects for the next one.
  auto newPid = pool.exec("SELECT pg_backend_pid() AS pid")[0].int64("pid");
  EXPECT_NE(newPid, pid);
}

TEST_F(PgPoolTest, TransactionsCommitOrRollBackWithHooks) {
  docs::core::PgPool pool({database_.url(), 2, 30000});
  pool.exec("CREATE TABLE t (n int)");
  int committed = 0;
  pool.transaction([&](docs::Tx& tx) {
    tx.exec("INSERT INTO t VALUES (1)");
    tx.afterCommit([&] { ++committed; });
  });
  EXPECT_EQ(committed, 1);
  EXPECT_THROW(pool.transaction([&](docs::Tx& tx) {
    tx.exec("INSERT INTO t VALUES (2)");
    tx.afterCommit([&] { ++committed; });
    tx.exec("SELECT * FROM missing_table");
  }),
               docs::DbError);
  EXPECT_EQ(committed, 1) << "hooks of a rolled-back transaction never run";
  EXPECT_EQ(pool.exec("SELECT count(*) AS n FROM t")[0].int64("n"), 1);
}

TEST_F(PgPoolTest, PoolWaitsForAFreeConnectionThenTimesOut) {
  docs::core::PgPool pool({database_.url(), 1, 30000, std::chrono::milliseconds(300)});
  std::thread holder([&] { pool.exec("SELECT pg_sleep(1)"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  try {
    pool.exec("SELECT 1");
    FAIL() << "expected the pool to time out";
  } catch (const docs::DbError& error) {
    EXPECT_EQ(error.sqlState(), "53300");
  }
  holder.join();
  EXPECT_EQ(pool.exec("SELECT 1 AS one")[0].int64("one"), 1);
}

TEST_F(PgPoolTest, BytesGoInBinaryAndComeBackWhole) {
  docs::core::PgPool pool({database_.url(), 1, 30000});
  pool.exec("CREATE TABLE b (id int, data bytea)");
  const std::string every = [] {
    std::string all;
    for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
    return all;
  }();
  const std::string zeros("\0\0x\0", 4);
  const std::string high("\xff\xfe\xff", 3);
  int id = 0;
  for (const std::string& value : {every, zeros, high, std::string()}) {
    pool.exec("INSERT INTO b VALUES ($1, $2)", {++id, docs::Param::bytes(value)});
    auto row = pool.exec("SELECT data, length(data) AS n FROM b WHERE id = $1", {id})[0];
    EXPECT_EQ(row.int64("n"), static_cast<std::int64_t>(value.size())) << "stored byte for byte, \\0 included";
    EXPECT_EQ(row.bytes("data"), value);
  }
  // Text and binary parameters mix in one statement.
  auto row = pool.exec("SELECT $1::text AS t, $2::bytea AS b", {"plain", docs::Param::bytes(high)})[0];
  EXPECT_EQ(row.text("t"), "plain");
  EXPECT_EQ(row.bytes("b"), high);
  EXPECT_THROW(pool.exec("SELECT 'not bytea' AS t")[0].bytes("t"), std::invalid_argument);
}
