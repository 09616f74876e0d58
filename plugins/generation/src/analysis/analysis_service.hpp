#pragma once
// The Analysis service: a project's analysis.json, its file pages and links to source
// lines, as the rag plugin (and any other) reads them.

#include <docs/context.hpp>
#include <docs/registry.hpp>
#include <docs/services/analysis.hpp>
#include <docs/services/projects.hpp>

namespace docs_generation {

// "https://host/owner/repo/blob/<commit>/path#La-Lb" for a repository at a commit;
// "path#La-Lb" (relative to the source root) when there is no web address.
std::string sourceLineUrl(const std::string& gitUrl, const std::string& commit, const std::string& path, int from,
                          int to);

class AnalysisService final : public docs::Analysis {
 public:
  // `projects`: the plugin's required ref (filled before anything calls this service).
  AnalysisService(docs::Context& context, const docs::ServiceRef<docs::Projects>& projects)
      : context_(context), projects_(projects) {}
  std::optional<docs::CodeAnalysis> load(std::int64_t projectId) override;
  std::optional<std::string> readSource(std::int64_t projectId, std::string_view path, std::size_t maxBytes) override;
  std::string sourceUrl(std::int64_t projectId, std::string_view path, int from, int to) override;

 private:
  docs::Context& context_;
  const docs::ServiceRef<docs::Projects>& projects_;
};

}  // namespace docs_generation
