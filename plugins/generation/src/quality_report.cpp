#include "quality_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "planner.hpp"

namespace fs = std::filesystem;

namespace docs::generation {
namespace {

double share(std::uint64_t part, std::uint64_t whole) { return whole == 0 ? 1.0 : static_cast<double>(part) / static_cast<double>(whole); }

bool isApiKind(const std::string& kind) {
  static const std::set<std::string> kinds = {"function", "class", "struct", "interface", "enum", "type", "typedef",
                                              "trait", "macro", "union", "alias", "protocol", "object", "func", "method"};
  return kinds.count(kind) > 0;
}

}  // namespace

nlohmann::json QualityReport::toJson() const {
  return {{"public_symbols", publicSymbols},
          {"documented_share", share(documentedSymbols, publicSymbols)},
          {"identifiers_named", identifiersNamed},
          {"identifiers_existing_share", share(identifiersFound, identifiersNamed)},
          {"identifiers_in_code_share", share(identifiersInCode, identifiersNamed)},
          {"identifiers_not_in_code_examples", notInCode},
          {"source_links", sourceLinks},
          {"source_links_resolving_share", share(sourceLinksResolved, sourceLinks)},
          {"diagrams", diagrams},
          {"diagrams_valid_share", share(diagramsValid, diagrams)},
          {"problems", problems}};
}

QualityReport measureQuality(const Analysis& analysis, const std::vector<PageDraft>& pages, const std::string& sourceRoot) {
  QualityReport report;
  std::set<std::string> known;  // symbol names, "scope.name", file paths and their names
  std::map<std::string, std::uint64_t> linesOf;
  for (const auto& f : analysis.files) {
    known.insert(f.path);
    known.insert(f.path.substr(f.path.rfind('/') == std::string::npos ? 0 : f.path.rfind('/') + 1));
    for (auto slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', slash + 1)) {
      known.insert(f.path.substr(0, slash));  // folders are named too ("in `src/net`")
      auto start = f.path.rfind('/', slash - 1);
      known.insert(f.path.substr(start == std::string::npos ? 0 : start + 1, slash - (start == std::string::npos ? 0 : start + 1)));
    }
    linesOf[f.path] = f.lines;
    for (const auto& s : f.symbols) {
      known.insert(s.name);
      if (!s.scope.empty()) known.insert(s.scope + "." + s.name);
      if (isApiKind(s.kind) && !s.name.empty() && s.name[0] != '_' && isCodeFile(f)) {
        ++report.publicSymbols;
        if (!s.doc.empty()) ++report.documentedSymbols;
      }
    }
  }
  // The strict figure counts only these: symbols, files and folders.
  const std::set<std::string> inCode = known;
  // Names the code's own comments, README and build files use (parameters, scripts)
  // exist in the code too: the pages quote them.
  static const std::regex word(R"([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)");
  auto addWords = [&](const std::string& text) {
    for (std::sregex_iterator it(text.begin(), text.end(), word), end; it != end; ++it) known.insert(it->str());
  };
  addWords(analysis.readme);
  for (const auto& b : analysis.builds) {
    addWords(b.name);
    for (const auto& fact : b.facts) addWords(fact);
  }
  for (const auto& f : analysis.files) {
    addWords(f.summary);
    for (const auto& s : f.symbols) addWords(s.doc);
  }
  auto problem = [&](std::string text) {
    if (report.problems.size() < 20) report.problems.push_back(std::move(text));
  };
  static const std::regex lineLink(R"(^(.+)#L([0-9]+)-L([0-9]+)$)");
  // A repository's blob URL names the same path after <base>/blob/<commit>/.
  static const std::regex blobUrl(R"(^[a-z][a-z0-9+.-]*://[^#]*?/blob/[0-9a-fA-F]{7,64}/(.+)$)");
  static const std::regex identifier(R"(^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$)");
  auto checkLink = [&](const std::string& href) {
    std::smatch match;
    std::string local = href;
    if (std::smatch blob; std::regex_match(href, blob, blobUrl)) local = blob[1];
    if (!std::regex_match(local, match, lineLink)) return;
    ++report.sourceLinks;
    std::string path = match[1];
    auto from = std::stoull(match[2]), to = std::stoull(match[3]);
    auto lines = linesOf.find(path);
    bool ok = lines != linesOf.end() && from >= 1 && from <= to && to <= lines->second &&
              fs::exists(fs::path(sourceRoot) / path);
    if (ok) ++report.sourceLinksResolved;
    else problem("source link to lines that do not exist: " + href);
  };
  std::function<void(const ydoc::Json&)> visit = [&](const ydoc::Json& node) {
    std::string type = node.value("type", "");
    if (type == "codeBlock") {
      const auto& attrs = node["attrs"];
      if (attrs.contains("git_url") && attrs["git_url"].is_string()) checkLink(attrs["git_url"].get<std::string>());
      if (attrs.contains("language") && attrs["language"] == "mermaid") {
        ++report.diagrams;
        std::string text = node.contains("content") ? node["content"][0].value("text", "") : "";
        std::string error;
        if (checkMermaid(text, &error)) ++report.diagramsValid;
        else problem("diagram outside the checked subset: " + error);
      }
    }
    if (type == "text" && node.contains("marks")) {
      bool code = false;
      for (const auto& mark : node["marks"]) {
        if (mark.value("type", "") == "code") code = true;
        if (mark.value("type", "") == "link" && mark["attrs"].contains("href") && mark["attrs"]["href"].is_string())
          checkLink(mark["attrs"]["href"].get<std::string>());
      }
      std::string text = node.value("text", "");
      // Identifiers in code style; signatures and paths are checked by the links instead.
      if (code && std::regex_match(text, identifier)) {
        ++report.identifiersNamed;
        if (known.count(text)) ++report.identifiersFound;
        else problem("identifier not found in the code: " + text);
        if (inCode.count(text)) ++report.identifiersInCode;
        else if (known.count(text) && report.notInCode.size() < 12 &&
                 std::find(report.notInCode.begin(), report.notInCode.end(), text) == report.notInCode.end())
          report.notInCode.push_back(text);
      }
    }
    if (node.contains("content"))
      for (const auto& child : node["content"]) visit(child);
  };
  for (const auto& page : pages) visit(page.content);
  return report;
}

}  // namespace docs::generation
