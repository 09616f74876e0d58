#include "writing/reader_report.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>

#include "analysis/concepts.hpp"
#include "analysis/file_roles.hpp"

namespace docs_generation {

namespace {

using Json = nlohmann::json;

// Visits every node under `node` in document order, depth first, without recursion;
// stops when `visit` returns false.
void walk(const Json& node, const std::function<bool(const Json&)>& visit) {
  std::vector<const Json*> stack = {&node};
  while (!stack.empty()) {
    const Json* n = stack.back();
    stack.pop_back();
    if (n->is_array()) {
      for (auto it = n->rbegin(); it != n->rend(); ++it) stack.push_back(&*it);
    } else if (n->is_object()) {
      if (!visit(*n)) return;
      if (n->contains("content")) stack.push_back(&(*n)["content"]);
    }
  }
}

std::string textOf(const Json& node) {
  std::string out;
  walk(node, [&](const Json& n) {
    if (n.contains("text") && n["text"].is_string()) out += n["text"].get<std::string>() + " ";
    return true;
  });
  return out;
}

// The file a source link names: "path#La-Lb" or ".../blob/<commit>/path#La-Lb".
std::string linkedPath(std::string href) {
  href = href.substr(0, href.find('#'));
  auto blob = href.find("/blob/");
  if (blob != std::string::npos) {
    auto slash = href.find('/', blob + 6);
    if (slash != std::string::npos) return href.substr(slash + 1);
  }
  return href;
}

std::string firstLinkOf(const Json& node) {
  std::string href;
  walk(node, [&](const Json& n) {
    if (n.contains("marks") && n["marks"].is_array())
      for (const auto& mark : n["marks"])
        if (mark.value("type", "") == "link" && mark.contains("attrs") && mark["attrs"].contains("href") &&
            mark["attrs"]["href"].is_string()) {
          href = mark["attrs"]["href"].get<std::string>();
          return false;
        }
    return true;
  });
  return href;
}

bool apiHeading(const std::string& text) {
  for (const char* word :
       {"API", "Public API", "Members of", "Публичный API", "Члены", "Öffentliche API", "Mitglieder von"})
    if (text.rfind(word, 0) == 0) return true;
  return false;
}

bool directivePurpose(const std::string& summary) {
  for (const char* directive :
       {"go:build", "+build", "<reference", "eslint-", "@ts-", "#!", "-*-", "use strict", "prettier-ignore"})
    if (summary.rfind(directive, 0) == 0) return true;
  return false;
}

bool exportedName(const Symbol& s, const std::string& language) {
  if (s.name.empty() || s.name[0] == '_') return false;
  if (language == "go") return std::isupper(static_cast<unsigned char>(s.name[0])) != 0;
  return true;
}

}  // namespace

Json readerFigures(const Analysis& analysis, const Plan& plan, const std::vector<PageDraft>& pages,
                   const std::string& sourceRoot) {
  Json out;
  out["library_first"] = !plan.topics.empty() && plan.topics.front().role == kRoleLibrary;
  out["first_topic"] = plan.topics.empty() ? "" : plan.topics.front().title;

  // Rows of API tables whose symbol lives in a test file (goal 0).
  std::uint64_t apiRows = 0, testRows = 0;
  std::map<std::string, const PageDraft*> byKey;
  for (const auto& page : pages) {
    byKey[page.key] = &page;
    if (!page.content.is_object() || !page.content.contains("content")) continue;
    std::string lastHeading;
    for (const auto& block : page.content["content"]) {
      std::string type = block.value("type", "");
      if (type == "heading") lastHeading = textOf(block);
      if (type != "table" || !apiHeading(lastHeading) || !block.contains("content")) continue;
      bool header = true;
      for (const auto& row : block["content"]) {
        if (header) {
          header = false;
          continue;
        }
        ++apiRows;
        if (!row.contains("content") || row["content"].empty()) continue;
        const auto* f = analysis.find(linkedPath(firstLinkOf(row["content"][0])));
        if (f && f->role == kRoleTest) ++testRows;
      }
    }
  }
  out["api_rows"] = apiRows;
  out["test_rows_in_api"] = testRows;

  // Exported symbols of library files found on their own file's page (goal 100 %).
  std::uint64_t exported = 0, onPage = 0;
  std::vector<std::string> missing;
  for (const auto& f : analysis.files) {
    if (!isLibraryRole(f.role)) continue;
    auto page = byKey.find("file:" + f.path);
    std::string text = page == byKey.end() ? "" : textOf(page->second->content);
    for (const auto& s : f.symbols) {
      if (!exportedName(s, f.language) || s.kind == "variable" || s.kind == "local" || s.kind == "parameter") continue;
      ++exported;
      if (!text.empty() && text.find(s.name) != std::string::npos) ++onPage;
      else if (missing.size() < 10) missing.push_back(f.path + ": " + s.name);
    }
  }
  out["exported_symbols"] = exported;
  out["exported_on_own_page_share"] = exported ? static_cast<double>(onPage) / static_cast<double>(exported) : 1.0;
  out["exported_missing_examples"] = missing;

  // Purposes read from build directives (goal 0) and tests among entry points (goal 0).
  std::uint64_t directives = 0, testEntries = 0;
  for (const auto& f : analysis.files) {
    if (directivePurpose(f.summary)) ++directives;
    if (f.entryPoint && f.role == kRoleTest) ++testEntries;
  }
  // The repository's own guides (Markdown and reStructuredText below the root, in any
  // folder but tests, examples and tooling) that became pages (goal 100 %).
  std::uint64_t guides = 0, guidePages = 0;
  std::vector<std::string> guidesMissing;
  for (const auto& f : analysis.files) {
    if (f.role != kRoleGuide || (f.language != "markdown" && f.language != "rst") ||
        f.path.find('/') == std::string::npos)
      continue;
    if (f.path.rfind('.', 0) == 0) continue;  // .github/ templates
    ++guides;
    if (byKey.count("guide:" + f.path)) ++guidePages;
    else if (guidesMissing.size() < 10) guidesMissing.push_back(f.path);
  }
  out["guides"] = guides;
  out["guides_as_pages_share"] = guides ? static_cast<double>(guidePages) / static_cast<double>(guides) : 1.0;
  out["guides_missing_examples"] = guidesMissing;
  out["directive_purposes"] = directives;
  out["test_entry_points"] = testEntries;

  // The five exported types the most other files name (every role counted, tests too:
  // an outside measure, not the writer's own weighting), and whether the overview names them.
  struct Type {
    std::string name;
    std::string file;
    std::size_t users;
  };
  std::vector<Type> types;
  std::map<std::string, std::size_t> typeIndex;
  for (const auto& f : analysis.files) {
    if (!isLibraryRole(f.role)) continue;
    for (const auto& s : f.symbols) {
      static const std::set<std::string> kinds = {"class", "struct", "interface", "trait", "enum", "type", "protocol"};
      if (!s.scope.empty() || !kinds.count(s.kind) || !exportedName(s, f.language) || typeIndex.count(s.name)) continue;
      bool script = f.language == "javascript" || f.language == "typescript";
      if (script && !std::isupper(static_cast<unsigned char>(s.name[0]))) continue;
      typeIndex[s.name] = types.size();
      types.push_back({s.name, f.path, 0});
    }
  }
  for (const auto& f : analysis.files) {
    if (f.language.empty() || f.build) continue;
    std::ifstream in(std::filesystem::path(sourceRoot) / f.path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    for (const auto& word : identifierWords(text))
      if (auto found = typeIndex.find(word); found != typeIndex.end() && types[found->second].file != f.path)
        ++types[found->second].users;
  }
  std::stable_sort(types.begin(), types.end(), [](const Type& a, const Type& b) { return a.users > b.users; });
  auto overview = byKey.find("overview");
  std::string overviewText = overview == byKey.end() ? "" : textOf(overview->second->content);
  Json top = Json::array();
  std::size_t named = 0;
  for (std::size_t i = 0; i < types.size() && i < 5; ++i) {
    bool found = overviewText.find(types[i].name) != std::string::npos;
    named += found ? 1 : 0;
    top.push_back({{"name", types[i].name}, {"files_naming_it", types[i].users}, {"in_overview", found}});
  }
  out["top_types"] = top;
  out["top_types_in_overview"] = named;
  return out;
}

}  // namespace docs_generation
