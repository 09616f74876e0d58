// The pages plugin: the page tree, stored content, export and images, and the Pages
// service. The logic lives in docs_pages_lib; this is the loadable shell.

#include <docs/plugin.hpp>

#include <functional>
#include <memory>

#include "page_routes.hpp"
#include "pages_service.hpp"

namespace docs_plugin_pages {
struct EmbeddedMigration {
  int version;
  const char* name;
  const char* sql;
};
const std::vector<EmbeddedMigration>& embeddedMigrations();
}  // namespace docs_plugin_pages

namespace {

class PagesPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    for (const auto& m : docs_plugin_pages::embeddedMigrations()) registry.migration(m.version, m.name, m.sql);
    service_ = std::make_unique<docs_pages::PagesService>(registry.context());
    registry.provideService<docs::Pages>(*service_);
    startRoutes_ = docs_pages::addPageRoutes(registry);
  }
  void start() override { startRoutes_(); }

 private:
  std::unique_ptr<docs_pages::PagesService> service_;
  std::function<void()> startRoutes_;
};

}  // namespace

DOCS_PLUGIN(PagesPlugin, "pages", "1.0.0", "projects,rbac", "Page tree, content, export and images")
