// The mcp plugin module: POST/GET/DELETE /mcp (Model Context Protocol, Streamable HTTP),
// its session table and the clean-up of idle sessions. The logic lives in docs_mcp_lib;
// this is the loadable shell.
#include <docs/config.hpp>
#include <docs/config_keys.hpp>
#include <docs/plugin.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "endpoint.hpp"
#include "mcp_routes.hpp"

#include "mcp_migrations.hpp"

namespace {

std::string trimSlash(std::string text) {
  while (!text.empty() && text.back() == '/') text.pop_back();
  return text;
}

class McpPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    registry.configKey("mcp.session_idle_minutes", "1440",
                       "An MCP session unused this long ends (its client initializes again).");
    registry.configKey("mcp.sessions_per_minute", "60",
                       "MCP sessions one client address may open per minute (0: unlimited).");
    registry.configKey("mcp.max_wiki_kb", "4096",
                       "Largest whole-wiki answer of read_wiki_contents; later pages are left out.");
    docs_plugin_mcp::registerMigrations(registry);
    const auto& config = context_->config();
    docs_mcp::EndpointSettings settings;
    settings.sessionIdle = std::chrono::minutes(std::max<std::int64_t>(1, config.getInt("mcp.session_idle_minutes")));
    settings.sessionsPerMinutePerAddress = static_cast<int>(config.getInt("mcp.sessions_per_minute"));
    settings.tools.maxWikiBytes = static_cast<std::size_t>(std::max<std::int64_t>(1, config.getInt("mcp.max_wiki_kb")))
                                  << 10;
    // owner/name names a repository on the GitHub projects are made from (the projects plugin's key).
    settings.tools.githubBase = trimSlash(config.getString(docs::kGithubUrl.key));
    // Browsers may call from the origins CORS allows with credentials; other pages are refused.
    settings.allowedOrigins = config.getList("server.allowed_origins");
    if (auto publicUrl = trimSlash(config.getString("server.public_url")); !publicUrl.empty())
      settings.allowedOrigins.push_back(publicUrl);

    endpoint_ = std::make_unique<docs_mcp::Endpoint>(registry, std::move(settings));
    docs_mcp::addMcpRoutes(registry, *endpoint_);

    docs::PeriodicOptions hourly;
    hourly.interval = std::chrono::hours(1);
    registry.periodic("clean_up", hourly, [this] { endpoint_->sessions().cleanUp(); });
  }

  void start() override {
    // Questions are as long as /lab/rag takes them: the rag plugin's key, declared by now
    // when it runs (it may be configured after this plugin).
    const auto& config = context_->config();
    if (config.has("rag.max_query_chars"))
      endpoint_->tools().setMaxArgumentChars(
          static_cast<std::size_t>(std::max<std::int64_t>(1, config.getInt("rag.max_query_chars"))));
  }

 private:
  docs::Context* context_ = nullptr;
  std::unique_ptr<docs_mcp::Endpoint> endpoint_;
};

}  // namespace

DOCS_PLUGIN(McpPlugin, "mcp", "1.0.0", "auth,projects,pages,rbac",
            "Model Context Protocol server at /mcp: the wikis, questions and search for AI agents")
