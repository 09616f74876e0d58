// The comments plugin: threads of comments on passages of a page. The logic lives in
// docs_comments_lib; this is the loadable shell.

#include <docs/plugin.hpp>
#include <docs/support/body_fields.hpp>

#include "comment_routes.hpp"
#include "comment_store.hpp"

#include "comments_migrations.hpp"

namespace {

class CommentsPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    context_ = &registry.context();
    docs_plugin_comments::registerMigrations(registry);
    docs_comments::addCommentRoutes(registry);
    // Every node hears these; the deletes are idempotent.
    registry.subscribe("page.deleted", [this](const nlohmann::json& payload) {
      std::vector<std::int64_t> ids;
      if (payload.contains("page_id"))
        if (auto value = docs::support::idFromJson(payload["page_id"])) ids.push_back(value);
      for (const auto& id : payload.value("page_ids", nlohmann::json::array()))
        if (auto value = docs::support::idFromJson(id)) ids.push_back(value);
      docs_comments::deletePages(context_->db(), ids);
    });
    registry.subscribe("project.deleted", [this](const nlohmann::json& payload) {
      if (auto id = docs::support::idFromJson(payload.value("project_id", nlohmann::json())))
        docs_comments::deleteProject(context_->db(), id);
    });
  }

 private:
  docs::Context* context_ = nullptr;
};

}  // namespace

DOCS_PLUGIN(CommentsPlugin, "comments", "1.0.0", "projects,rbac,pages", "Comment threads on passages of a page")
