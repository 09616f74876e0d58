#pragma once
// The other plugins' services rag works with, declared in configure() and filled by the
// host before start(); the plugin owns them, the indexer and the query keep references.

#include <docs/registry.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/analysis.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>

namespace docs_rag {

// Required: Projects (rag_status, public projects), Pages and Documents (page text) and AccessControl
// (readable projects). Used: Analysis (generation's files, sources and line links):
// without generation only pages are indexed and hits carry no git_url.
struct RagServices {
  docs::ServiceRef<docs::Projects> projects;
  docs::ServiceRef<docs::Pages> pages;
  docs::ServiceRef<docs::Documents> documents;
  docs::ServiceRef<docs::AccessControl> access;
  docs::ServiceRef<docs::Analysis> analysis;

  void declare(docs::Registry& registry);
};

}  // namespace docs_rag
