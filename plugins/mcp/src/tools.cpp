#include "tools.hpp"

#include <docs/ydoc/ydoc.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <regex>
#include <set>
#include <span>

#include <strings.h>

#include "json_rpc.hpp"

namespace docs_mcp {

using docs::HttpError;
using docs::Json;
using docs::PageSummary;
using docs::Principal;
using docs::ProjectSummary;
using docs::Registry;
using docs::Role;

namespace {

constexpr int kMaxListedProjects = 1000;

// A failure the model should read (the call itself was well formed).
class ToolFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Json textResult(const std::string& text, bool isError = false) {
  return {{"content", Json::array({{{"type", "text"}, {"text", text}}})}, {"isError", isError}};
}

std::size_t codePoints(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

void rejectUnknown(const Json& arguments, std::initializer_list<std::string_view> allowed) {
  for (const auto& item : arguments.items())
    if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
      throw RpcError(kInvalidParams, "Unknown argument '" + item.key() + "'");
}

std::string boundedString(const Json& value, std::string_view name, std::size_t maxChars) {
  if (!value.is_string()) throw RpcError(kInvalidParams, "'" + std::string(name) + "' must be a string");
  const auto& text = value.get_ref<const std::string&>();
  if (codePoints(text) > maxChars)
    throw RpcError(kInvalidParams,
                   "'" + std::string(name) + "' is longer than " + std::to_string(maxChars) + " characters");
  return text;
}

std::string requiredText(const Json& arguments, std::string_view name, std::size_t maxChars) {
  if (!arguments.contains(name) || arguments[name].is_null())
    throw RpcError(kInvalidParams, "'" + std::string(name) + "' is required");
  std::string text = boundedString(arguments[name], name, maxChars);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw RpcError(kInvalidParams, "'" + std::string(name) + "' must not be empty");
  return text;
}

// A project reference as given: an id (number or digits) or a repository's owner/name.
std::string projectReference(const Json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return std::to_string(value.get<std::int64_t>());
  std::string text = boundedString(value, "project", 200);
  if (text.empty()) throw RpcError(kInvalidParams, "'project' must not be empty");
  return text;
}

// `project` (or DeepWiki's `repoName`), or `projects` when several are allowed.
std::vector<std::string> projectReferences(const Json& arguments, bool several, std::size_t maxProjects) {
  std::vector<std::string> references;
  for (const char* single : {"project", "repoName"}) {
    if (!arguments.contains(single) || arguments[single].is_null()) continue;
    const auto& value = arguments[single];
    if (value.is_array() && several) {
      if (value.size() > maxProjects)
        throw RpcError(kInvalidParams, "At most " + std::to_string(maxProjects) + " projects at once");
      for (const auto& item : value) references.push_back(projectReference(item));
    } else {
      references.push_back(projectReference(value));
    }
  }
  if (several && arguments.contains("projects") && !arguments["projects"].is_null()) {
    const auto& list = arguments["projects"];
    if (!list.is_array()) throw RpcError(kInvalidParams, "'projects' must be an array of project ids or owner/name");
    if (list.size() > maxProjects)
      throw RpcError(kInvalidParams, "At most " + std::to_string(maxProjects) + " projects at once");
    for (const auto& item : list) references.push_back(projectReference(item));
  }
  if (references.empty())
    throw RpcError(kInvalidParams, several ? "'project' or 'projects' is required" : "'project' is required");
  if (references.size() > maxProjects)
    throw RpcError(kInvalidParams, "At most " + std::to_string(maxProjects) + " projects at once");
  return references;
}

// "owner/name" of a project whose repository is on the configured GitHub, else "".
std::string ownerAndName(const ProjectSummary& project, const std::string& githubBase) {
  const std::string& url = project.gitUrl;
  if (url.size() <= githubBase.size() + 1 || strncasecmp(url.data(), githubBase.data(), githubBase.size()) != 0 ||
      url[githubBase.size()] != '/')
    return "";
  return url.substr(githubBase.size() + 1);
}

// The project the caller may read, by reference; anything else is the same "not found".
ProjectSummary readableProject(const ToolServices& services, const std::string& reference,
                               const std::optional<Principal>& caller, const std::string& githubBase) {
  auto& projects = *services.projects;
  auto& access = *services.access;
  static const std::regex digits("^[1-9][0-9]{0,17}$");
  static const std::regex repository("^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$");
  std::optional<ProjectSummary> project;
  if (std::regex_match(reference, digits)) project = projects.find(std::stoll(reference));
  else if (std::regex_match(reference, repository)) project = projects.findByGitUrl(githubBase + "/" + reference);
  if (project) {
    try {
      access.requireKnown(project->id, project->isPublic(), caller, Role::Read);
      return *project;
    } catch (const HttpError&) {
      // a private project without a role: the same answer as a missing one
    }
  }
  throw ToolFailure("Project not found: " + reference);
}

std::string describeProject(const ProjectSummary& project, const std::string& githubBase) {
  std::string line = "- " + std::to_string(project.id);
  if (auto repo = ownerAndName(project, githubBase); !repo.empty()) line += " (" + repo + ")";
  line += ": " + project.name + " [" + project.visibility + ", " + project.status + "]";
  return line;
}

// Pages in reading order: each parent before its children, siblings as stored.
std::vector<std::pair<const PageSummary*, int>> pageTree(const std::vector<PageSummary>& pages) {
  std::map<std::int64_t, std::vector<const PageSummary*>> children;
  std::set<std::int64_t> ids;
  for (const auto& page : pages) ids.insert(page.id);
  for (const auto& page : pages) children[ids.count(page.parentId) ? page.parentId : 0].push_back(&page);
  std::vector<std::pair<const PageSummary*, int>> ordered;
  std::function<void(std::int64_t, int)> walk = [&](std::int64_t parent, int depth) {
    auto found = children.find(parent);
    if (found == children.end()) return;
    for (const auto* page : found->second) {
      ordered.emplace_back(page, depth);
      if (page->id != parent) walk(page->id, depth + 1);
    }
  };
  walk(0, 0);
  return ordered;
}

std::string pageMarkdown(const ToolServices& services, std::int64_t pageId) {
  std::optional<std::string> bytes;
  bytes = services.documents->read(pageId);
  try {
    docs::ydoc::Doc doc;
    if (bytes && !bytes->empty())
      doc.applyUpdate(
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()));
    return docs::ydoc::toMarkdown(docs::ydoc::toProseMirrorJson(doc));
  } catch (const docs::ydoc::YdocError&) {
    return "*(this page's stored content cannot be read)*\n";
  }
}

Json schemaFor(const std::string& name, const ToolSettings& settings) {
  Json project = {{"description", "A project id, or a GitHub repository as owner/name"},
                  {"type", Json::array({"string", "integer"})}};
  Json projects = {{"type", "array"},
                   {"items", project},
                   {"maxItems", settings.maxProjects},
                   {"description", "Several projects (ids or owner/name)"}};
  if (name == "list_projects")
    return {{"type", "object"}, {"properties", Json::object()}, {"additionalProperties", false}};
  if (name == "read_wiki_structure")
    return {{"type", "object"}, {"properties", {{"project", project}}}, {"required", {"project"}}};
  if (name == "read_wiki_contents")
    return {{"type", "object"},
            {"properties",
             {{"project", project},
              {"page",
               {{"type", Json::array({"string", "integer"})},
                {"description", "A page id from read_wiki_structure; omit it for the whole wiki"}}}}},
            {"required", {"project"}}};
  if (name == "ask_question")
    return {{"type", "object"},
            {"properties",
             {{"project", project},
              {"projects", projects},
              {"question", {{"type", "string"}, {"maxLength", settings.maxArgumentChars}}}}},
            {"required", {"question"}}};
  return {{"type", "object"},
          {"properties",
           {{"project", project},
            {"projects", projects},
            {"query", {{"type", "string"}, {"maxLength", settings.maxArgumentChars}}},
            {"kind",
             {{"type", "string"},
              {"enum", {"code", "docs"}},
              {"description", "Search only code or only documentation; both when omitted"}}}}},
          {"required", {"query"}}};
}

std::vector<std::int64_t> projectIds(const ToolServices& services, const Json& arguments, const ToolCaller& caller,
                                     const ToolSettings& settings) {
  std::vector<std::int64_t> ids;
  for (const auto& reference : projectReferences(arguments, true, settings.maxProjects)) {
    auto id = readableProject(services, reference, caller.principal, settings.githubBase).id;
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return ids;
}

// The rag plugin's answer, or the failure a model can read.
Json askSearch(const ToolServices& services, const Json& body, const ToolCaller& caller) {
  auto* search = services.search.get();
  if (!search) throw ToolFailure("Search is not available on this server");
  try {
    return search->query(body, caller.principal, caller.address);
  } catch (const HttpError& error) {
    if (error.status() == 400) throw RpcError(kInvalidParams, error.what());
    throw ToolFailure(error.what());
  }
}

std::string formatHits(const Json& items) {
  if (!items.is_array() || items.empty()) return "No matches.";
  std::string text;
  int n = 0;
  for (const auto& item : items) {
    text += std::to_string(++n) + ". [" + item.value("source", "") + "] " + item.value("description", "") +
            " (project " + std::to_string(item.value("project_id", 0)) + ")\n";
    if (item.contains("git_url") && item["git_url"].is_string())
      text += "   " + item["git_url"].get<std::string>() + "\n";
    else if (item.contains("page_id") && item["page_id"].is_number())
      text += "   page " + std::to_string(item["page_id"].get<std::int64_t>()) + "\n";
    text += "```\n" + item.value("content", "") + "\n```\n\n";
  }
  return text;
}

}  // namespace

ToolServices::ToolServices(Registry& registry) {
  registry.require(projects);
  registry.require(access);
  registry.require(pages);
  registry.require(documents);
  registry.use(search);
}

Tools::Tools(Registry& registry, ToolSettings settings) : services_(registry), settings_(std::move(settings)) {}

Json Tools::list() const {
  struct Entry {
    const char* name;
    const char* title;
    const char* description;
    bool needsSearch;
  };
  static const Entry entries[] = {
      {"list_projects", "List projects",
       "List the documentation projects you can read, with their ids and GitHub owner/name.", false},
      {"read_wiki_structure", "Read a wiki's page tree", "Get the page tree of a project's wiki: page ids and titles.",
       false},
      {"read_wiki_contents", "Read wiki pages", "Read one page of a project's wiki, or the whole wiki, as Markdown.",
       false},
      {"ask_question", "Ask about a project",
       "Ask a question about one or more projects; the answer cites its sources in the code and docs.", true},
      {"search", "Search code and docs",
       "Search one or more projects' code or documentation; returns the best passages with their locations.", true}};
  bool searchable = static_cast<bool>(services_.search);
  Json tools = Json::array();
  for (const auto& entry : entries) {
    if (entry.needsSearch && !searchable) continue;
    tools.push_back({{"name", entry.name},
                     {"title", entry.title},
                     {"description", entry.description},
                     {"inputSchema", schemaFor(entry.name, settings_)},
                     {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}});
  }
  return tools;
}

Json Tools::call(const std::string& name, const Json& arguments, const ToolCaller& caller) {
  if (!arguments.is_object()) throw RpcError(kInvalidParams, "'arguments' must be an object");
  try {
    if (name == "list_projects") {
      rejectUnknown(arguments, {});
      auto& projects = *services_.projects;
      auto& access = *services_.access;
      std::vector<std::int64_t> ids = projects.publicProjectIds(kMaxListedProjects);
      if (caller.principal && !caller.principal->anonymous())
        for (const auto& [id, role] : access.grantsOf(*caller.principal))
          if (role >= Role::Read) ids.push_back(id);
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      std::string text;
      for (auto id : ids)
        if (auto project = projects.find(id)) text += describeProject(*project, settings_.githubBase) + "\n";
      return textResult(text.empty() ? "No projects."
                                     : "Projects (id, repository, name, visibility and status):\n" + text);
    }
    if (name == "read_wiki_structure") {
      rejectUnknown(arguments, {"project", "repoName"});
      auto project = readableProject(services_, projectReferences(arguments, false, 1).front(), caller.principal,
                                     settings_.githubBase);
      auto pages = services_.pages->listProject(project.id);
      std::string text = "# " + project.name + " (project " + std::to_string(project.id) + ")\n\n";
      for (const auto& [page, depth] : pageTree(pages))
        text += std::string(static_cast<std::size_t>(depth) * 2, ' ') + "- " + std::to_string(page->id) + ": " +
                page->name + "\n";
      if (pages.empty()) text += "(no pages yet)\n";
      return textResult(text);
    }
    if (name == "read_wiki_contents") {
      rejectUnknown(arguments, {"project", "repoName", "page"});
      auto project = readableProject(services_, projectReferences(arguments, false, 1).front(), caller.principal,
                                     settings_.githubBase);
      auto& pages = *services_.pages;
      if (arguments.contains("page") && !arguments["page"].is_null()) {
        std::string reference = projectReference(arguments["page"]);
        static const std::regex digits("^[1-9][0-9]{0,17}$");
        auto page = std::regex_match(reference, digits) ? pages.find(std::stoll(reference)) : std::nullopt;
        if (!page || page->projectId != project.id) throw ToolFailure("Page not found in this project: " + reference);
        return textResult("# " + page->name + "\n\n" + pageMarkdown(services_, page->id));
      }
      auto all = pages.listProject(project.id);
      std::string text;
      std::size_t left = 0;
      for (const auto& [page, depth] : pageTree(all)) {
        if (text.size() >= settings_.maxWikiBytes) {
          ++left;
          continue;
        }
        text += "# Page " + std::to_string(page->id) + ": " + page->name + "\n\n" + pageMarkdown(services_, page->id) +
                "\n\n";
      }
      if (left > 0)
        text += "*(" + std::to_string(left) +
                " more pages left out: the wiki is larger than one answer may be; read them "
                "one at a time with `page`)*\n";
      return textResult(text.empty() ? "(no pages yet)" : text);
    }
    if (name == "ask_question" || name == "search") {
      bool ask = name == "ask_question";
      rejectUnknown(arguments,
                    ask ? std::initializer_list<std::string_view>{"project", "projects", "repoName", "question"}
                        : std::initializer_list<std::string_view>{"project", "projects", "repoName", "query", "kind"});
      std::string text = requiredText(arguments, ask ? "question" : "query", settings_.maxArgumentChars);
      std::string kind;
      if (!ask && arguments.contains("kind") && !arguments["kind"].is_null()) {
        kind = boundedString(arguments["kind"], "kind", 10);
        if (kind != "code" && kind != "docs") throw RpcError(kInvalidParams, "'kind' must be code or docs");
      }
      auto ids = projectIds(services_, arguments, caller, settings_);
      Json body = {{"query", text},
                   {"projectIds", ids},
                   {"is_llm", ask},
                   {"is_code", kind != "docs"},
                   {"is_docs", kind != "code"}};
      Json answer = askSearch(services_, body, caller);
      return textResult(ask ? (answer.is_string() ? answer.get<std::string>() : answer.dump()) : formatHits(answer));
    }
  } catch (const ToolFailure& failure) {
    return textResult(failure.what(), true);
  } catch (const RpcError& error) {
    // Invalid arguments: since 2025-11-25 a tool execution error the model can correct.
    if (!caller.argumentErrorsAsResults || error.code() != kInvalidParams) throw;
    return textResult(std::string("Invalid arguments for ") + name + ": " + error.what(), true);
  }
  throw RpcError(kInvalidParams, "Unknown tool: " + name);
}

}  // namespace docs_mcp
