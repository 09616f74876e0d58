#include <gtest/gtest.h>

#include <set>
#include <string>

#include <docs/project_status.hpp>

using docs::ProjectStatus;

TEST(ProjectStatus, EveryNameReadsBackAsItsStatus) {
  std::set<std::string> names;
  for (auto status : docs::kProjectStatuses) {
    std::string name(docs::toString(status));
    EXPECT_EQ(docs::parseProjectStatus(name), status) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 22u);
  EXPECT_FALSE(docs::parseProjectStatus("ready"));
  EXPECT_FALSE(docs::parseProjectStatus(""));
  EXPECT_FALSE(docs::parseProjectStatus("DOC_SUBTOPICS_FAILED"));
}

TEST(ProjectStatus, FailuresAndTheEndOfARun) {
  const std::set<std::string> failed = {"CLONE_FAIL",
                                        "PULL_FAIL",
                                        "DOC_FILE_OVERVIEWS_FAILED",
                                        "DOC_PROJECT_OVERVIEW_FAILED",
                                        "DOC_TOPICS_FAILED",
                                        "DOC_TOPIC_PAGES_FAILED",
                                        "DOC_FILE_PAGES_FAILED",
                                        "DOC_FAILURE"};
  for (auto status : docs::kProjectStatuses) {
    std::string name(docs::toString(status));
    EXPECT_EQ(docs::isFailed(status), failed.count(name) > 0) << name;
    // generation_runs.finished_at is set where the SQL once said DOC_SUCCESS or '%FAIL%'.
    EXPECT_EQ(docs::endsRun(status), name == "DOC_SUCCESS" || name.find("FAIL") != std::string::npos) << name;
  }
}

TEST(ProjectStatus, ARunningStatusEndsInItsOwnFailure) {
  EXPECT_EQ(docs::failedFor(ProjectStatus::Cloning), ProjectStatus::CloneFail);
  EXPECT_EQ(docs::failedFor(ProjectStatus::DocPending), ProjectStatus::FileOverviewsFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::FileOverviewsGenerating), ProjectStatus::FileOverviewsFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::ProjectOverviewGenerating), ProjectStatus::ProjectOverviewFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::TopicsGenerating), ProjectStatus::TopicsFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::TopicPagesGenerating), ProjectStatus::TopicPagesFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::SubtopicsGenerating), ProjectStatus::DocFailure);  // no DOC_SUBTOPICS_FAILED
  EXPECT_EQ(docs::failedFor(ProjectStatus::FilePagesGenerating), ProjectStatus::FilePagesFailed);
  EXPECT_EQ(docs::failedFor(ProjectStatus::DocUpdating), ProjectStatus::DocFailure);
  for (auto status : docs::kProjectStatuses) {
    auto failure = docs::failedFor(status);
    if (failure) {
      EXPECT_TRUE(docs::isFailed(*failure)) << docs::toString(status);
    }
    if (docs::isFailed(status) || status == ProjectStatus::DocSuccess || status == ProjectStatus::Ready ||
        status == ProjectStatus::Idle) {
      EXPECT_FALSE(failure) << docs::toString(status);
    }
  }
}

TEST(ProjectStatus, SortOrderOfTheProjectList) {
  EXPECT_EQ(docs::sortOrder(ProjectStatus::DocSuccess), 1);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::Ready), 1);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::DocUpdating), 2);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::Cloning), 3);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::FileOverviewsFailed), 3);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::FilePagesFailed), 4);
  EXPECT_EQ(docs::sortOrder(ProjectStatus::DocFailure), 5);
  static_assert(docs::toString(ProjectStatus::DocSuccess) == "DOC_SUCCESS");
}
