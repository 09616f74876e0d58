// The generation plugin module: jobs per stage, reactions to uploads and deletions, and
// GET /api/project/{id}/generation (the status history of a project's generation).
#include <docs/plugin.hpp>
#include <docs/support/body_fields.hpp>
#include <docs/support/chat_model.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/github_access.hpp>

#include <memory>

#include "analysis_service.hpp"
#include "generation_service.hpp"

#include "generation_migrations.hpp"

namespace {

class GenerationPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("generation.ctags", "ctags", "Universal Ctags executable (with JSON output).");
    registry.configKey("generation.max_files", "20000", "Files documented per project at most.");
    registry.configKey("generation.max_unpacked_mb", "1024", "Largest unpacked size of an uploaded ZIP.");
    registry.configKey("generation.test_stage_delay_ms", "0", "For tests: a pause after each status change.");
    registry.configKey("generation.fail_stage", "", "For tests: a stage that fails on purpose (unpack, analyze, overview, topics, topic_pages, subtopics, file_pages).");
    registry.configKey("github.url", "https://github.com", "GitHub web base URL (GitHub Enterprise: https://ghe.example.com).");
    registry.configKey("generation.allowed_git_hosts", "github.com,gitlab.com,bitbucket.org,codeberg.org",
                       "Hosts other than github.url that repositories may be cloned from (public addresses only).");
    registry.configKey("generation.allow_file_urls", "false", "Allow file:// repositories (single-user machines and tests).");
    registry.configKey("generation.max_model_pages", "200", "File pages per run whose opening the model writes (with model.url set).");
    docs::support::declareModelKeys(registry);
    registry.configKey("generation.max_clone_mb", "2048", "Largest repository transfer, in MiB.");
    docs_plugin_generation::registerMigrations(registry);
    analysis_ = std::make_unique<docs::generation::AnalysisService>(*context_);
    registry.provideService<docs::Analysis>(*analysis_);
    const auto& config = context_->config();
    settings_.ctags = config.getString("generation.ctags");
    settings_.maxFiles = static_cast<std::uint64_t>(config.getInt("generation.max_files"));
    settings_.maxUnpackedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_unpacked_mb")) << 20;
    settings_.failStage = config.getString("generation.fail_stage");
    settings_.stageDelayMs = static_cast<int>(config.getInt("generation.test_stage_delay_ms"));
    settings_.model = docs::support::modelSettingsFrom(config);
    settings_.maxModelPages = static_cast<int>(config.getInt("generation.max_model_pages"));
    settings_.clonePolicy.trustedBase = config.getString("github.url");
    for (auto host : config.getList("generation.allowed_git_hosts")) {
      for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      settings_.clonePolicy.allowedHosts.push_back(host);
    }
    settings_.clonePolicy.allowFileUrls = config.getBool("generation.allow_file_urls");
    settings_.gitLimits.maxReceivedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_clone_mb")) << 20;

    registry.jobHandler(docs::generation::GenerationService::kJobKind, [this](docs::JobContext& job) {
      if (service_) service_->runStage(job);
      else throw std::runtime_error("generation is not started");
    });
    registry.subscribe("project.zip_uploaded", [this](const docs::Json& payload) {
      if (service_ && payload.contains("project_id")) service_->onZipUploaded(docs::support::idFromJson(payload["project_id"]));
    });
    registry.subscribe("project.created", [this](const docs::Json& payload) {
      if (service_ && payload.contains("project_id")) service_->onProjectCreated(docs::support::idFromJson(payload["project_id"]));
    });
    registry.subscribe(docs::kGithubPushEvent, [this](const docs::Json& payload) {
      if (service_ && payload.contains("project_id")) service_->requestSync(docs::support::idFromJson(payload["project_id"]));
    });
    registry.configKey("generation.reconcile_seconds", "300", "How often repository projects are compared with their remote (0: never).");
    registry.subscribe("project.deleted", [this](const docs::Json& payload) {
      if (service_ && payload.contains("project_id")) service_->onProjectDeleted(docs::support::idFromJson(payload["project_id"]));
    });
    docs::PeriodicOptions recover;
    recover.interval = std::chrono::seconds(30);
    registry.periodic("recover", recover, [this] {
      if (service_) service_->recoverLostUploads();
    });
    settings_.reconcileSeconds = static_cast<int>(config.getInt("generation.reconcile_seconds"));
    if (auto seconds = settings_.reconcileSeconds; seconds > 0) {
      docs::PeriodicOptions reconcile;
      reconcile.interval = std::chrono::seconds(seconds);
      registry.periodic("reconcile", reconcile, [this] {
        if (service_) service_->reconcileRepositories();
      });
    }
    registry.route(docs::Method::Get, "/api/project/{id}/generation", [this](docs::Request& request, docs::Response& response) {
      auto id = request.idParam("id");
      auto& access = context_->requireService<docs::AccessControl>();
      access.require(id, request.principal(), docs::Role::Read);
      response.json(service_->describe(id));
    });
  }

  void start() override {
    service_ = std::make_unique<docs::generation::GenerationService>(*context_, settings_);
    service_->recoverLostUploads();
  }

 private:
  docs::Context* context_ = nullptr;
  docs::generation::GenerationSettings settings_;
  std::unique_ptr<docs::generation::GenerationService> service_;
  std::unique_ptr<docs::generation::AnalysisService> analysis_;
};

}  // namespace

DOCS_PLUGIN(GenerationPlugin, "generation", "0.1.0", "projects,pages,rbac",
            "Documentation written from code: ZIP sources, analysis with Universal Ctags, the offline writer")
