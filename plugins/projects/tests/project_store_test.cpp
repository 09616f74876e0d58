// The projects table's writes against a real database (the plugin's own migrations), no docsd.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "db/pg_pool.hpp"
#include "project_store.hpp"
#include "test_support.hpp"

namespace {

class ProjectStore : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream file(std::string(DOCS_PROJECTS_MIGRATIONS) + "/0001_projects.sql");
    std::stringstream sql;
    sql << file.rdbuf();
    ASSERT_FALSE(sql.str().empty());
    // One statement at a time: parameterless statements go through the same path as the rest.
    std::string text = sql.str();
    for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
      end = text.find(";\n", start);
      if (end == std::string::npos) end = text.size();
      std::string statement = text.substr(start, end - start);
      if (statement.find_first_not_of(" \n") != std::string::npos) pool_.exec(statement);
    }
    auto created = pool_.exec(
        "INSERT INTO projects (type, name, git_url) VALUES ('github', 'p', 'https://github.com/o/r') RETURNING id");
    id_ = created[0].int64("id");
  }
  std::int64_t stored() {
    auto rows = pool_.exec("SELECT COALESCE(installation_id, 0) AS i FROM projects WHERE id = $1", {id_});
    return rows.empty() ? -1 : rows[0].int64("i");
  }

  docs::test::TestDatabase database_;
  docs::core::PgPool pool_{{database_.url(), 2, 30000}};
  std::int64_t id_ = 0;
};

}  // namespace

// Generation read "no installation", asked GitHub (installation 5); meanwhile a webhook
// stored 7. Generation's write back must leave the webhook's value.
TEST_F(ProjectStore, AnInstallationLookedUpAsNoneDoesNotOverwriteOneAWebhookStoredMeanwhile) {
  ASSERT_EQ(stored(), 0);
  EXPECT_TRUE(docs_projects::updateInstallation(pool_, id_, 7));  // the webhook
  EXPECT_FALSE(docs_projects::replaceInstallation(pool_, id_, 5, 0));
  EXPECT_EQ(stored(), 7);
  // Unset, it is written.
  EXPECT_TRUE(docs_projects::updateInstallation(pool_, id_, 0));
  EXPECT_TRUE(docs_projects::replaceInstallation(pool_, id_, 5, 0));
  EXPECT_EQ(stored(), 5);
}

// A removal names the installation it removes: a project that another installation reaches
// by now keeps it.
TEST_F(ProjectStore, ClearingOnlyForgetsTheInstallationThatWasRemoved) {
  EXPECT_TRUE(docs_projects::updateInstallation(pool_, id_, 9));
  EXPECT_FALSE(docs_projects::replaceInstallation(pool_, id_, 0, 7));
  EXPECT_EQ(stored(), 9);
  EXPECT_TRUE(docs_projects::replaceInstallation(pool_, id_, 0, 9));
  EXPECT_EQ(stored(), 0);
  EXPECT_FALSE(docs_projects::replaceInstallation(pool_, id_ + 1000, 3, 0)) << "no such project";
}
