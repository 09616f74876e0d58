// The generation plugin module: jobs per stage, reactions to uploads and deletions,
// GET /api/project/{id}/generation (the status history of a project's generation), and
// the `docsd generate` command (the pipeline without a server). The logic lives in
// docs_generation_lib; this is the loadable shell.
#include <docs/context.hpp>
#include <docs/logger.hpp>
#include <docs/plugin.hpp>
#include <docs/topics.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/analysis_service.hpp"
#include "generate_cli.hpp"
#include "generation_routes.hpp"
#include "generation_service.hpp"
#include "generation_services.hpp"

#include "generation_migrations.hpp"

namespace {

class GenerationPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs_generation::declareGenerationKeys(registry);
    docs_plugin_generation::registerMigrations(registry);
    declareGenerateCommand(registry);
    services_.declare(registry);
    settings_ = docs_generation::readGenerationSettings(context_->config());
    analysis_ = std::make_unique<docs_generation::AnalysisService>(*context_, services_.projects);
    registry.provideService<docs::Analysis>(*analysis_);
    service_ = std::make_unique<docs_generation::GenerationService>(*context_, services_, settings_);

    registry.jobHandler(docs_generation::GenerationService::kJobKind,
                        [this](docs::JobContext& job) { service_->runStage(job); });
    docs::on(registry, docs::kProjectZipUploaded,
             [this](const docs::ZipUploaded& event) { service_->onZipUploaded(event.projectId); });
    docs::on(registry, docs::kProjectCreated,
             [this](const docs::ProjectCreated& event) { service_->onProjectCreated(event.projectId); });
    docs::on(registry, docs::kGithubPush,
             [this](const docs::GithubPush& event) { service_->requestSync(event.projectId); });
    docs::on(registry, docs::kProjectDeleted,
             [this](const docs::ProjectDeleted& event) { service_->onProjectDeleted(event.projectId); });
    docs::PeriodicOptions recover;
    recover.interval = std::chrono::seconds(30);
    registry.periodic("recover", recover, [this] { service_->recoverLostUploads(); });
    if (auto seconds = settings_.reconcileSeconds; seconds > 0) {
      docs::PeriodicOptions reconcile;
      reconcile.interval = std::chrono::seconds(seconds);
      registry.periodic("reconcile", reconcile, [this] { service_->reconcileRepositories(); });
    }
    docs_generation::addGenerationRoutes(registry, *service_, services_);
  }

  // `docsd generate SRC --out DIR`: the same settings as the server (config file, DOCS_*),
  // read when it runs.
  void declareGenerateCommand(docs::Registry& registry) {
    docs::Command generate;
    generate.name = "generate";
    generate.usage = "<path|file.zip|url> --out DIR [--language en|ru|de] [--report]";
    generate.summary =
        "write a source tree's documentation as Markdown (no server needed; an OpenAI-compatible model writes "
        "with llm.base_url set, else the offline writer; docsd generate --help)";
    for (const auto& key : docs_generation::generationKeys())
      if (key.readByCommand) generate.keys.emplace_back(key.name);
    generate.run = [this](const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
      const auto& config = context_->config();
      auto settings =
          docs_generation::readGenerationSettings([&](const std::string& key) -> std::optional<std::string> {
            if (!config.has(key)) return std::nullopt;
            return config.getString(key);
          });
      return docs_generation::runGenerateCli(args, out, err, settings);
    };
    registry.command(std::move(generate));
  }

  void start() override {
    for (const auto& key : settings_.deprecatedInUse)
      context_->logger().warn("a deprecated configuration key is set", {{"key", key}});
    service_->recoverLostUploads();
  }

 private:
  docs::Context* context_ = nullptr;
  // Declared first: the objects below keep references to the refs.
  docs_generation::GenerationServices services_;
  docs_generation::GenerationSettings settings_;
  std::unique_ptr<docs_generation::GenerationService> service_;
  std::unique_ptr<docs_generation::AnalysisService> analysis_;
};

}  // namespace

DOCS_PLUGIN(GenerationPlugin, "generation", "0.1.0", "projects,pages,rbac",
            "Documentation written from code: ZIP uploads and cloned repositories, analysis with Universal Ctags, "
            "the offline writer or an OpenAI-compatible model")
