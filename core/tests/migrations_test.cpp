#include <gtest/gtest.h>

#include <thread>

#include "db/migrations.hpp"
#include "db/pg_pool.hpp"
#include "test_support.hpp"

using docs::core::applyMigrations;
using docs::core::Migration;
using docs::core::MigrationError;

class MigrationsTest : public ::testing::Test {
 protected:
  docs::test::TestDatabase database_;
  docs::core::PgPool pool_{{database_.url(), 4, 30000}};

  std::string errorOf(const std::vector<Migration>& migrations) {
    try {
      applyMigrations(pool_, migrations);
    } catch (const MigrationError& error) {
      return error.what();
    }
    return "";
  }
  bool tableExists(const std::string& name) {
    return !pool_.exec("SELECT 1 FROM pg_tables WHERE tablename = $1", {name}).empty();
  }
};

TEST_F(MigrationsTest, AppliesInVersionOrderPerOwnerAndOnlyOnce) {
  std::vector<Migration> migrations = {
      {"pages", 2, "add column", "ALTER TABLE pages_t ADD COLUMN title text;"},
      {"pages", 1, "create", "CREATE TABLE pages_t (id int); CREATE INDEX pages_t_id ON pages_t (id);"},
      {"auth", 1, "create", "CREATE TABLE auth_t (id int);"}};
  auto first = applyMigrations(pool_, migrations);
  EXPECT_EQ(first.applied.size(), 3u);
  EXPECT_TRUE(tableExists("pages_t"));
  EXPECT_EQ(pool_.exec("SELECT title FROM pages_t").columns().at(0), "title");
  auto second = applyMigrations(pool_, migrations);
  EXPECT_TRUE(second.applied.empty());
  EXPECT_EQ(pool_.exec("SELECT count(*) AS n FROM schema_migrations")[0].int64("n"), 3);
}

TEST_F(MigrationsTest, EditedAppliedMigrationIsRefused) {
  applyMigrations(pool_, {{"pages", 1, "create", "CREATE TABLE p1 (id int);"}});
  auto message = errorOf({{"pages", 1, "create", "CREATE TABLE p1 (id bigint);"}});
  EXPECT_NE(message.find("pages: migration 1 (create) was changed after it was applied"), std::string::npos) << message;
}

TEST_F(MigrationsTest, RemovedMigrationIsRefused) {
  applyMigrations(pool_, {{"pages", 1, "a", "CREATE TABLE p2 (id int);"}, {"pages", 2, "b", "SELECT 1;"}});
  auto message = errorOf({{"pages", 1, "a", "CREATE TABLE p2 (id int);"}});
  EXPECT_NE(message.find("no longer declared"), std::string::npos) << message;
}

TEST_F(MigrationsTest, NewMigrationOlderThanAnAppliedOneIsRefused) {
  applyMigrations(pool_, {{"pages", 5, "five", "SELECT 1;"}});
  auto message = errorOf({{"pages", 3, "three", "SELECT 1;"}, {"pages", 5, "five", "SELECT 1;"}});
  EXPECT_NE(message.find("older than the applied migration 5"), std::string::npos) << message;
}

TEST_F(MigrationsTest, DuplicateVersionsAreRefused) {
  auto message = errorOf({{"pages", 1, "a", "SELECT 1;"}, {"pages", 1, "b", "SELECT 2;"}});
  EXPECT_NE(message.find("twice"), std::string::npos) << message;
}

TEST_F(MigrationsTest, AFailingMigrationRollsBackTheWholeRun) {
  auto message = errorOf({{"a", 1, "ok", "CREATE TABLE kept_t (id int);"},
                          {"b", 1, "broken", "CREATE TABLE broken_t (id int); SELEC oops;"}});
  EXPECT_NE(message.find("b: migration 1 (broken) failed"), std::string::npos) << message;
  EXPECT_FALSE(tableExists("kept_t"));
  EXPECT_FALSE(tableExists("broken_t"));
}

TEST_F(MigrationsTest, ConcurrentStartsApplyEachMigrationOnce) {
  std::vector<Migration> migrations = {{"jobs", 1, "create", "CREATE TABLE concurrent_t (id int);"},
                                       {"jobs", 2, "seed", "INSERT INTO concurrent_t VALUES (1);"}};
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      try {
        docs::core::PgPool pool({database_.url(), 1, 30000});
        applyMigrations(pool, migrations);
      } catch (...) {
        ++failures;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(pool_.exec("SELECT count(*) AS n FROM concurrent_t")[0].int64("n"), 1);
}
