// The rag plugin module: the search index kept by jobs that follow analyses and page
// edits, and POST /lab/rag. The logic lives in docs_rag_lib; this is the loadable shell.
#include <docs/plugin.hpp>
#include <docs/project_status.hpp>
#include <docs/support/chat_model.hpp>
#include <docs/topics.hpp>

#include <memory>

#include "indexer.hpp"
#include "query_metrics.hpp"
#include "rag_query.hpp"
#include "rag_routes.hpp"
#include "rag_services.hpp"

#include "rag_migrations.hpp"

namespace {

class RagPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("rag.max_query_chars", "2000", "Longest question /lab/rag accepts, in characters.");
    registry.configKey("rag.user_requests_per_minute", "30", "Questions per minute per signed-in user (0: unlimited).");
    registry.configKey("rag.address_requests_per_minute", "60",
                       "Questions per minute per client address (0: unlimited).");
    registry.configKey("rag.daily_model_tokens", "200000",
                       "Model tokens per user (or address) per UTC day (0: unlimited).");
    registry.configKey("rag.max_file_kb", "1024", "Longest part of a source file that is indexed.");
    registry.configKey("rag.role_prior", "true",
                       "Rank by file role too: tests and examples yield unless the question names them; guides and "
                       "documented public API lead for questions in words (false: text ranking only).");
    docs::support::declareModelKeys(registry);
    docs_plugin_rag::registerMigrations(registry);
    services_.declare(registry);

    const auto& config = context_->config();
    docs_rag::QuerySettings query;
    query.maxQueryChars = static_cast<std::size_t>(config.getInt("rag.max_query_chars"));
    query.userRequestsPerMinute = static_cast<int>(config.getInt("rag.user_requests_per_minute"));
    query.addressRequestsPerMinute = static_cast<int>(config.getInt("rag.address_requests_per_minute"));
    query.dailyModelTokens = config.getInt("rag.daily_model_tokens");
    query.model = docs::support::modelSettingsFrom(config);
    query.rolePrior = config.getBool("rag.role_prior");
    docs_rag::IndexerSettings indexing;
    indexing.maxFileBytes = static_cast<std::size_t>(config.getInt("rag.max_file_kb")) << 10;
    indexer_ = std::make_unique<docs_rag::Indexer>(*context_, services_, indexing);
    query_ = std::make_unique<docs_rag::RagQuery>(*context_, services_, query);
    queryMetrics_ = std::make_unique<docs_rag::QueryMetrics>(context_->metrics());
    search_ = std::make_unique<docs_rag::CountedSearch>(*query_, *queryMetrics_);
    registry.provideService<docs::Search>(*search_);
    // The web app asks at ragUrl (rag.<host> with server.subhosts); POST /lab/rag is rag's
    // API, so an unknown path below /lab/ is a JSON 404, not the web app.
    registry.clientEndpoint({"ragUrl", "rag"});
    registry.apiPrefix("/lab/");

    registry.jobHandler(docs_rag::Indexer::kProjectJob,
                        [this](docs::JobContext& job) { indexer_->runProjectJob(job); });
    registry.jobHandler(docs_rag::Indexer::kPageJob, [this](docs::JobContext& job) { indexer_->runPageJob(job); });
    registry.jobHandler(docs_rag::Indexer::kCatchUpJob,
                        [this](docs::JobContext& job) { indexer_->runCatchUpJob(job); });
    docs::on(registry, docs::kAnalysisChanged,
             [this](const docs::AnalysisChanged& event) { indexer_->queueProject(event.projectId); });
    docs::on(registry, docs::kProjectCreated, [this](const docs::ProjectCreated& event) {
      // Hand-written projects are indexed from the start (generated ones after their run).
      if (auto project = services_.projects->find(event.projectId);
          project && project->status == docs::toString(docs::ProjectStatus::Ready))
        indexer_->queueProject(event.projectId);
    });
    for (auto topic : {docs::kPageCreated, docs::kPageUpdated, docs::kPageContentReplaced})
      docs::on(registry, topic,
               [this](const docs::PageChanged& event) { indexer_->queuePage(event.projectId, event.pageId); });
    docs::on(registry, docs::kPageDeleted,
             [this](const docs::PagesDeleted& event) { indexer_->dropPages(event.pageIds); });
    docs::on(registry, docs::kProjectDeleted,
             [this](const docs::ProjectDeleted& event) { indexer_->dropProject(event.projectId); });
    docs_rag::addRagRoutes(registry, *query_, *queryMetrics_);
  }

  // Edits whose page.updated rag did not get (published by a plugin stopping after rag,
  // such as collab's last fold, or lost to a crash) are indexed once the jobs run.
  void start() override { indexer_->queueCatchUp(); }

 private:
  docs::Context* context_ = nullptr;
  // Declared first: the indexer and the query keep references to the refs.
  docs_rag::RagServices services_;
  std::unique_ptr<docs_rag::Indexer> indexer_;
  std::unique_ptr<docs_rag::RagQuery> query_;
  std::unique_ptr<docs_rag::QueryMetrics> queryMetrics_;
  std::unique_ptr<docs_rag::CountedSearch> search_;
};

}  // namespace

DOCS_PLUGIN(RagPlugin, "rag", "0.1.0", "projects,pages,rbac",
            "Search over code and docs (PostgreSQL full-text and trigram), POST /lab/rag, extractive or model answers")
