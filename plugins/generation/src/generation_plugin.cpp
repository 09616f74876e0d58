// The generation plugin module: jobs per stage, reactions to uploads and deletions,
// GET /api/project/{id}/generation (the status history of a project's generation), and
// the `docsd generate` command (the pipeline without a server).
#include <docs/plugin.hpp>
#include <docs/context.hpp>
#include <docs/logger.hpp>
#include <docs/support/body_fields.hpp>
#include <docs/support/chat_model.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/github_access.hpp>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/analysis_service.hpp"
#include "generate_cli.hpp"
#include "generation_docs.hpp"
#include "generation_service.hpp"

#include "generation_migrations.hpp"

namespace {

class GenerationPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("generation.ctags", "ctags", "Universal Ctags executable (with JSON output).");
    registry.configKey("generation.max_files", "20000", "Files documented per project at most.");
    registry.configKey("generation.max_unpacked_mb", "1024", "Largest unpacked size of an uploaded ZIP or a repository's checkout.");
    registry.configKey("generation.test_stage_delay_ms", "0", "For tests: a pause after each status change.");
    registry.configKey("generation.fail_stage", "", "For tests: a stage that fails on purpose (unpack, analyze, overview, topics, topic_pages, subtopics, file_pages).");
    registry.configKey("github.url", "https://github.com", "GitHub web base URL (GitHub Enterprise: https://ghe.example.com).");
    registry.configKey("generation.allowed_hosts", "github.com",
                       "Hosts other than github.url that repositories may be cloned from (public addresses only).");
    registry.configKey("generation.allow_local_sources", "false", "Allow file:// repositories and local paths (single-user machines and tests).");
    registry.configKey("generation.allowed_git_hosts", "", "Deprecated name of generation.allowed_hosts.");
    registry.configKey("generation.allow_file_urls", "", "Deprecated name of generation.allow_local_sources.");
    registry.configKey("generation.max_model_pages", "200", "File pages per run whose opening the model writes (with llm.base_url set).");
    registry.configKey("generation.max_run_seconds", "3600", "Time one run's analysis and writing may take (0: unbounded).");
    docs::support::declareModelKeys(registry);
    registry.configKey("generation.max_clone_mb", "2048", "Largest repository transfer, in MiB.");
    docs_plugin_generation::registerMigrations(registry);
    declareGenerateCommand(registry);
    analysis_ = std::make_unique<docs::generation::AnalysisService>(*context_);
    registry.provideService<docs::Analysis>(*analysis_);
    const auto& config = context_->config();
    settings_.ctags = config.getString("generation.ctags");
    settings_.maxFiles = static_cast<std::uint64_t>(config.getInt("generation.max_files"));
    settings_.maxUnpackedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_unpacked_mb")) << 20;
    settings_.failStage = config.getString("generation.fail_stage");
    settings_.stageDelayMs = static_cast<int>(config.getInt("generation.test_stage_delay_ms"));
    settings_.model = docs::support::modelSettingsFrom(config, &deprecatedInUse_);
    settings_.maxRunSeconds = static_cast<int>(config.getInt("generation.max_run_seconds"));
    settings_.maxModelPages = static_cast<int>(config.getInt("generation.max_model_pages"));
    settings_.clonePolicy.trustedBase = config.getString("github.url");
    std::string hosts = docs::support::readRenamed(config, {"generation.allowed_hosts", "generation.allowed_git_hosts", "github.com"},
                                                   &deprecatedInUse_);
    for (std::size_t start = 0; start <= hosts.size();) {
      auto comma = std::min(hosts.find(',', start), hosts.size());
      std::string host = hosts.substr(start, comma - start);
      std::erase_if(host, [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
      for (auto& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (!host.empty()) settings_.clonePolicy.allowedHosts.push_back(host);
      start = comma + 1;
    }
    // The old name counts when the new one is left at its default (false).
    settings_.clonePolicy.allowFileUrls = config.getBool("generation.allow_local_sources");
    if (!config.getString("generation.allow_file_urls").empty()) {
      deprecatedInUse_.push_back("generation.allow_file_urls (now generation.allow_local_sources)");
      settings_.clonePolicy.allowFileUrls = settings_.clonePolicy.allowFileUrls || config.getBool("generation.allow_file_urls");
    }
    settings_.gitLimits.maxReceivedBytes = static_cast<std::uint64_t>(config.getInt("generation.max_clone_mb")) << 20;
    // A checkout may hold as many files and folders as a ZIP may hold entries.
    settings_.gitLimits.maxEntries = settings_.maxFiles * 2;
    settings_.gitLimits.maxUnpackedBytes = settings_.maxUnpackedBytes;

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
    }, {}, docs::generation::generationStatusDoc());
    // Starts a failed run again from the stage that failed (writers of the project).
    registry.route(docs::Method::Post, "/api/project/{id}/generation/retry", [this](docs::Request& request, docs::Response& response) {
      auto id = request.idParam("id");
      auto& access = context_->requireService<docs::AccessControl>();
      access.require(id, request.principal(), docs::Role::Write);
      response.json({{"stage", service_->retry(id)}}, 202);
    }, {}, docs::generation::retryGenerationDoc());
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
    for (const auto& entry : docs::generation::generateCliKeys()) generate.keys.push_back(entry.first);
    generate.run = [this](const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
      const auto& config = context_->config();
      auto settings = docs::generation::generateCliSettings([&](const std::string& key) -> std::optional<std::string> {
        if (!config.has(key)) return std::nullopt;
        return config.getString(key);
      });
      return docs::generation::runGenerateCli(args, out, err, settings);
    };
    registry.command(std::move(generate));
  }

  void start() override {
    for (const auto& key : deprecatedInUse_)
      context_->logger().warn("a deprecated configuration key is set", {{"key", key}});
    service_ = std::make_unique<docs::generation::GenerationService>(*context_, settings_);
    service_->recoverLostUploads();
  }

 private:
  docs::Context* context_ = nullptr;
  docs::generation::GenerationSettings settings_;
  std::unique_ptr<docs::generation::GenerationService> service_;
  std::unique_ptr<docs::generation::AnalysisService> analysis_;
  std::vector<std::string> deprecatedInUse_;  // logged at start (configure does no I/O)
};

}  // namespace

DOCS_PLUGIN(GenerationPlugin, "generation", "0.1.0", "projects,pages,rbac",
            "Documentation written from code: ZIP uploads and cloned repositories, analysis with Universal Ctags, "
            "the offline writer or an OpenAI-compatible model")
