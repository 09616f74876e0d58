#include "analysis/analysis_service.hpp"

#include "source_view.hpp"

#include <docs/db.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/analysis.hpp"

namespace docs_generation {

using docs::CodeAnalysis;
using docs::CodeFile;
using docs::Context;

namespace fs = std::filesystem;

namespace {

fs::path projectDir(const Context& context, std::int64_t projectId) {
  return fs::path(context.dataDir()) / "generation" / std::to_string(projectId);
}

std::optional<Analysis> readAnalysis(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  auto json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  return Analysis::fromJson(json);
}

}  // namespace

std::string sourceLineUrl(const std::string& gitUrl, const std::string& commit, const std::string& path, int from,
                          int to) {
  std::string lines = "#L" + std::to_string(from) + "-L" + std::to_string(to);
  if (gitUrl.empty() || commit.empty()) return path + lines;
  std::string base = gitUrl;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".git") == 0) base.resize(base.size() - 4);
  return base + "/blob/" + commit + "/" + path + lines;
}

std::optional<CodeAnalysis> AnalysisService::load(std::int64_t projectId) {
  fs::path analysisFile = projectDir(context_, projectId) / "analysis.json";
  auto analysis = readAnalysis(analysisFile);
  if (!analysis) return std::nullopt;
  // A code file's page, or a guide's own page (keys file:<path>, guide:<path>).
  std::map<std::string, std::int64_t> filePages;
  for (auto row : context_.db().exec("SELECT key, page_id FROM generation_pages WHERE project_id = $1"
                                     " AND (key LIKE 'file:%' OR key LIKE 'guide:%') ORDER BY key DESC",
                                     {projectId})) {
    const std::string& key = row.text("key");
    filePages[key.substr(key.find(':') + 1)] = row.int64("page_id");  // file: (after guide:) wins
  }
  CodeAnalysis out;
  out.projectId = projectId;
  auto project = projects_->find(projectId);
  if (project && !project->commitHash.empty()) out.revision = project->commitHash;
  else {
    std::error_code error;
    auto stamp = fs::last_write_time(analysisFile, error);
    out.revision = error ? "" : std::to_string(stamp.time_since_epoch().count());
  }
  out.files.reserve(analysis->files.size());
  for (const auto& file : analysis->files) {
    CodeFile code;
    code.path = file.path;
    code.language = file.language;
    code.lines = file.lines;
    code.summary = file.summary;
    code.role = file.role;
    if (auto found = filePages.find(file.path); found != filePages.end()) code.pageId = found->second;
    for (const auto& symbol : file.symbols)
      code.symbols.push_back(
          {symbol.name, symbol.kind, symbol.scope, symbol.signature, symbol.doc, symbol.line, symbol.end});
    out.files.push_back(std::move(code));
  }
  return out;
}

std::optional<std::string> AnalysisService::readSource(std::int64_t projectId, std::string_view path,
                                                       std::size_t maxBytes) {
  // Only relative names that stay inside the sources, and no links: never a file outside.
  fs::path relative(std::string{path});
  if (path.empty() || relative.is_absolute()) return std::nullopt;
  for (const auto& part : relative)
    if (part == ".." || part == ".") return std::nullopt;
  fs::path file = projectDir(context_, projectId) / "source" / relative;
  std::error_code error;
  auto status = fs::symlink_status(file, error);
  if (error || !fs::is_regular_file(status)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(maxBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(maxBytes));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string AnalysisService::sourceUrl(std::int64_t projectId, std::string_view path, int from, int to) {
  // A repository's lines at the generated commit; an upload's in this app's source view.
  auto project = projects_->find(projectId);
  if (!project) return "";
  if (project->gitUrl.empty() || project->commitHash.empty())
    return sourceViewUrl(projectId, std::string(path), from, to);
  return sourceLineUrl(project->gitUrl, project->commitHash, std::string(path), from, to);
}

}  // namespace docs_generation
