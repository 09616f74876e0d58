#pragma once
// The built-in writer: real documentation pages from the analysis alone, with no model.
// Each page is ProseMirror JSON in the editor's schema (core/ydoc/schema.json): what a
// project, module and file are for (from their docs, names, imports and callers), API
// tables with signatures, dependency diagrams in mermaid from the import graph, and
// code excerpts whose git_url points at the exact lines.

#include <functional>
#include <string>
#include <vector>

#include <docs/ydoc/any.hpp>

#include "analysis/analysis.hpp"
#include "planning/planner.hpp"

namespace docs_generation {

struct PageDraft {
  std::string key;        // "overview", "topic:<folder>", "file:<path>"
  std::string parentKey;  // "" for the root
  std::string title;
  std::string type = "generated";  // spec: file | generated
  docs::ydoc::Json content;        // a ProseMirror "doc" node
};

struct WriterContext {
  std::string language = "en";  // en | ru | de
  std::string sourceRoot;       // where the sources are on disk
  // "path#L1-L9" or "https://host/owner/repo/blob/<commit>/path#L1-L9"
  std::function<std::string(const std::string& path, int from, int to)> sourceUrl;
  // An href for another page by key ("" when it has none).
  std::function<std::string(const std::string& key)> pageHref;
};

// Every page of the plan, parents before children: overview, topics (with subtopics),
// file pages under their topic.
std::vector<PageDraft> planPages(const Analysis& analysis, const Plan& plan, const std::string& language);
// Fills in the content of one drafted page.
void writePage(PageDraft& page, const Analysis& analysis, const Plan& plan, const WriterContext& context);

// A phrase of the writer in the page's language (en, ru, de).
std::string phrase(const std::string& language, const std::string& key);

// The mermaid subset the writers emit: `flowchart LR|TD`, node definitions
// `id["label"]`, edges `a --> b` or `a -->|n| b`. True when `text` stays in it.
bool checkMermaid(const std::string& text, std::string* error = nullptr);

}  // namespace docs_generation
