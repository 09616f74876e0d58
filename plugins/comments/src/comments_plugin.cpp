// The comments plugin: threads of comments on passages of a page. The logic lives in
// docs_comments_lib; this is the loadable shell.

#include <docs/plugin.hpp>
#include <docs/topics.hpp>

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
    docs::on(registry, docs::kPageDeleted,
             [this](const docs::PagesDeleted& event) { docs_comments::deletePages(context_->db(), event.pageIds); });
    docs::on(registry, docs::kProjectDeleted, [this](const docs::ProjectDeleted& event) {
      docs_comments::deleteProject(context_->db(), event.projectId);
    });
  }

 private:
  docs::Context* context_ = nullptr;
};

}  // namespace

DOCS_PLUGIN(CommentsPlugin, "comments", "1.0.0", "projects,rbac,pages", "Comment threads on passages of a page")
