// The pages plugin: the page tree, page documents (content and log), export and images,
// and the Pages and Documents services. The logic lives in docs_pages_lib; this is the loadable shell.

#include <docs/plugin.hpp>

#include <memory>

#include "documents_service.hpp"
#include "page_routes.hpp"
#include "pages_service.hpp"

#include "pages_migrations.hpp"

namespace {

class PagesPlugin final : public docs::Plugin {
 public:
  void configure(docs::Registry& registry) override {
    docs_plugin_pages::registerMigrations(registry);
    service_ = std::make_unique<docs_pages::PagesService>(registry);
    documents_ = std::make_unique<docs_pages::DocumentsService>(registry);
    registry.provideService<docs::Pages>(*service_);
    registry.provideService<docs::Documents>(*documents_);
    routes_ = docs_pages::addPageRoutes(registry, *service_, *documents_);
  }

 private:
  std::unique_ptr<docs_pages::PagesService> service_;
  std::unique_ptr<docs_pages::DocumentsService> documents_;
  std::shared_ptr<docs_pages::PageRoutes> routes_;
};

}  // namespace

DOCS_PLUGIN(PagesPlugin, "pages", "1.0.0", "projects,rbac", "Page tree, content, export and images")
