#pragma once
// The MCP tools, named as DeepWiki's so existing agent configurations work: list_projects,
// read_wiki_structure, read_wiki_contents, ask_question, search. Each is authorized as the
// REST API is: a project the caller may not read does not exist for them.

#include <cstddef>
#include <optional>
#include <string>

#include <docs/http.hpp>
#include <docs/registry.hpp>
#include <docs/services/access_control.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/pages.hpp>
#include <docs/services/projects.hpp>
#include <docs/services/search.hpp>

namespace docs_mcp {

struct ToolSettings {
  std::size_t maxArgumentChars = 2000;            // a question, a query, a project reference
  std::size_t maxProjects = 100;                  // projects one question may name
  std::size_t maxWikiBytes = 4 << 20;             // the whole wiki as one Markdown text
  std::string githubBase = "https://github.com";  // github.url: owner/name is a repository there
};

struct ToolCaller {
  std::optional<docs::Principal> principal;  // nullopt: anonymous, public projects only
  std::string address;                       // for the rate limits of questions
  bool argumentErrorsAsResults = false;      // the session's protocol reports bad arguments as isError
};

// The other plugins' services the tools read, declared in configure().
struct ToolServices {
  // Requires Projects, AccessControl, Pages and Documents (mcp depends on their plugins);
  // uses Search (rag's).
  explicit ToolServices(docs::Registry& registry);

  docs::ServiceRef<docs::Projects> projects;
  docs::ServiceRef<docs::AccessControl> access;
  docs::ServiceRef<docs::Pages> pages;
  docs::ServiceRef<docs::Documents> documents;
  docs::ServiceRef<docs::Search> search;
};

class Tools {
 public:
  // Declares the services the tools need; built in configure().
  Tools(docs::Registry& registry, ToolSettings settings);
  // The longest question or query: the rag plugin's rag.max_query_chars, read in start()
  // (rag may be configured after mcp), before any call reaches the tools.
  void setMaxArgumentChars(std::size_t maxChars) { settings_.maxArgumentChars = maxChars; }
  // The `tools` of tools/list; ask_question and search only when the rag plugin runs.
  docs::Json list() const;
  // A tools/call result ({content, isError}). An unknown tool throws RpcError (-32602), so
  // do invalid arguments unless the caller's protocol wants them as a result with isError;
  // failures inside a tool (a project not found, a rate limit) are a result with isError,
  // which the model reads.
  docs::Json call(const std::string& name, const docs::Json& arguments, const ToolCaller& caller);

 private:
  ToolServices services_;
  ToolSettings settings_;
};

}  // namespace docs_mcp
