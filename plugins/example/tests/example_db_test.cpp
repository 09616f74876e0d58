// The example plugin in the fake host with a real database (a fresh one in the shared test
// cluster): migrated and started, a note stored, its job run and its event delivered, all
// on the test's thread and without docsd.
#include <gtest/gtest.h>

#include <docs/testing/fake_host.hpp>

#include "db/pg_pool.hpp"
#include "test_support.hpp"

using docs::Json;
using docs::Method;

TEST(ExamplePluginDb, ANoteIsStoredProcessedByItsJobAndItsEventCounted) {
  docs::test::TestDatabase database;
  docs::core::PgPool pool({database.url(), 2, 30000});
  auto plugin = docs::testing::loadPlugin(DOCS_EXAMPLE_PLUGIN);
  docs::testing::FakeHost host("example");
  host.context().useDatabase(pool);
  host.run(*plugin.plugin);
  ASSERT_TRUE(host.started());
  EXPECT_TRUE(host.context().logger().logged("example plugin started"));
  auto& registry = host.registry();

  auto created = registry.call(Method::Post, "/api/example/notes", R"({"text":"write the docs"})");
  ASSERT_EQ(created.status, 201) << created.body << created.failure;
  auto id = created.json()["id"].get<std::int64_t>();
  // The job was enqueued inside the note's transaction, so it is recorded as committed.
  auto jobs = host.context().jobs().enqueued();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_TRUE(jobs[0].inTransaction);
  EXPECT_EQ(jobs[0].spec.kind, "example.process_note");

  EXPECT_EQ(registry.call(Method::Get, "/api/example/notes/" + std::to_string(id)).json()["processed"], false);
  EXPECT_EQ(registry.runEnqueuedJobs(), 1u);
  EXPECT_EQ(registry.call(Method::Get, "/api/example/notes/" + std::to_string(id)).json()["processed"], true);
  // The job published after its commit; delivered to the plugin's own subscriber.
  auto processed = host.context().events().payloadsOf("example.note_processed");
  ASSERT_EQ(processed.size(), 1u);
  EXPECT_EQ(processed[0], (Json{{"id", id}}));
  EXPECT_EQ(registry.deliverPublished(), 1u);
  auto stats = registry.call(Method::Get, "/api/example/stats").json();
  EXPECT_EQ(stats["events_seen"], 1);
  EXPECT_EQ(stats["notes_processed"], 1);

  EXPECT_EQ(registry.call(Method::Get, "/api/example/notes/999999").status, 404);
  host.stop();
  EXPECT_TRUE(host.context().logger().logged("example plugin stopped"));
}

TEST(ExamplePluginDb, ARolledBackTransactionRecordsNoJobAndNoEvent) {
  docs::test::TestDatabase database;
  docs::core::PgPool pool({database.url(), 2, 30000});
  docs::testing::FakeContext context("example");
  context.useDatabase(pool);
  EXPECT_THROW(context.db().transaction([&](docs::Tx& tx) {
    context.jobs().enqueue(tx, {"example.process_note", {{"id", 1}}});
    context.events().publishAfterCommit(tx, "example.note_processed", {{"id", 1}});
    throw std::runtime_error("roll back");
  }),
               std::runtime_error);
  EXPECT_TRUE(context.jobs().enqueued().empty());
  EXPECT_TRUE(context.events().published().empty());
}
