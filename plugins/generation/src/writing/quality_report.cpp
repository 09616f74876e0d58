#include "writing/quality_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "planning/planner.hpp"

namespace fs = std::filesystem;

namespace docs_generation {

namespace {

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 1.0 : static_cast<double>(part) / static_cast<double>(whole);
}

bool isIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The dotted identifier (a.b_c.d) starting at `at`; its end, or `at` when none starts there.
std::size_t dottedIdentifierEnd(std::string_view text, std::size_t at) {
  if (at >= text.size() || !isIdentifierStart(text[at])) return at;
  std::size_t end = at + 1;
  while (true) {
    while (end < text.size() && isIdentifierChar(text[end])) ++end;
    if (end + 1 < text.size() && text[end] == '.' && isIdentifierStart(text[end + 1])) end += 2;
    else return end;
  }
}

bool isDottedIdentifier(std::string_view text) { return !text.empty() && dottedIdentifierEnd(text, 0) == text.size(); }

// Digits to a number that stops growing at a bound (a link to line 10^30 is just wrong).
std::uint64_t lineValue(std::string_view digits) {
  std::uint64_t value = 0;
  for (char c : digits) value = std::min<std::uint64_t>(value * 10 + static_cast<std::uint64_t>(c - '0'), 1ull << 40);
  return value;
}

bool allDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A local line link "path#L<from>-L<to>".
struct LineLink {
  std::string path;
  std::uint64_t from = 0, to = 0;
};
std::optional<LineLink> parseLineLink(std::string_view link) {
  auto hash = link.rfind("#L");
  if (hash == std::string_view::npos || hash == 0 ||
      link.substr(0, hash).find_first_of("\r\n") != std::string_view::npos)
    return std::nullopt;
  auto rest = link.substr(hash + 2);
  auto dash = rest.find("-L");
  if (dash == std::string_view::npos || !allDigits(rest.substr(0, dash)) || !allDigits(rest.substr(dash + 2)))
    return std::nullopt;
  return LineLink{std::string(link.substr(0, hash)), lineValue(rest.substr(0, dash)), lineValue(rest.substr(dash + 2))};
}

// A repository's blob URL (scheme://.../blob/<commit>/<path>) names <path>; else nullopt.
std::optional<std::string> blobPath(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos || scheme == 0 || !std::islower(static_cast<unsigned char>(url[0])))
    return std::nullopt;
  for (char c : url.substr(0, scheme))
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '+' ||
          c == '.' || c == '-'))
      return std::nullopt;
  auto firstHash = url.find('#', scheme + 3);
  for (auto at = url.find("/blob/", scheme + 3); at != std::string_view::npos && at < firstHash;
       at = url.find("/blob/", at + 1)) {
    std::size_t end = at + 6;
    while (end < url.size() && end - (at + 6) <= 64 && isHexDigit(url[end])) ++end;
    std::size_t hexLength = end - (at + 6);
    if (hexLength < 7 || hexLength > 64 || end >= url.size() || url[end] != '/') continue;
    auto path = url.substr(end + 1);
    if (!path.empty() && path.find_first_of("\r\n") == std::string_view::npos) return std::string(path);
  }
  return std::nullopt;
}

bool isApiKind(const std::string& kind) {
  static const std::set<std::string> kinds = {"function", "class",    "struct", "interface", "enum",
                                              "type",     "typedef",  "trait",  "macro",     "union",
                                              "alias",    "protocol", "object", "func",      "method"};
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

QualityReport measureQuality(const Analysis& analysis, const std::vector<PageDraft>& pages,
                             const std::string& sourceRoot) {
  QualityReport report;
  std::set<std::string> known;  // symbol names, "scope.name", file paths and their names
  std::map<std::string, std::uint64_t> linesOf;
  for (const auto& f : analysis.files) {
    known.insert(f.path);
    known.insert(f.path.substr(f.path.rfind('/') == std::string::npos ? 0 : f.path.rfind('/') + 1));
    for (auto slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', slash + 1)) {
      known.insert(f.path.substr(0, slash));  // folders are named too ("in `src/net`")
      auto start = f.path.rfind('/', slash - 1);
      known.insert(f.path.substr(start == std::string::npos ? 0 : start + 1,
                                 slash - (start == std::string::npos ? 0 : start + 1)));
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
  // Names the code's own comments, README, guides and build files use (parameters, scripts)
  // exist in the code too: the pages quote them.
  auto addWords = [&](const std::string& text) {
    for (std::size_t at = 0; at < text.size();) {
      std::size_t end = dottedIdentifierEnd(text, at);
      if (end == at) {
        ++at;
      } else {
        known.insert(text.substr(at, end - at));
        at = end;
      }
    }
  };
  addWords(analysis.readme);
  for (const auto& b : analysis.builds) {
    addWords(b.name);
    for (const auto& fact : b.facts) addWords(fact);
  }
  for (const auto& f : analysis.files) {
    addWords(f.summary);
    for (const auto& s : f.symbols) addWords(s.doc);
    // The README and the guides are quoted whole (guide pages, Getting started): what
    // they name is the repository's word, not the writer's.
    if (f.documentation && !sourceRoot.empty()) {
      std::ifstream in(fs::path(sourceRoot) / f.path, std::ios::binary);
      std::string text(1 << 20, '\0');
      in.read(text.data(), static_cast<std::streamsize>(text.size()));
      text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
      addWords(text);
    }
  }
  auto problem = [&](std::string text) {
    if (report.problems.size() < 20) report.problems.push_back(std::move(text));
  };
  auto checkLink = [&](const std::string& href) {
    auto blob = blobPath(href);
    std::string local = blob.value_or(href);
    auto link = parseLineLink(local);
    if (!link) return;
    // A guide's link to another repository's file (or one its package does not ship) is
    // the guide's, not one the writer made: only blob links into this tree count.
    if (blob && !linesOf.count(link->path)) return;
    ++report.sourceLinks;
    const std::string& path = link->path;
    auto from = link->from, to = link->to;
    auto lines = linesOf.find(path);
    bool ok = lines != linesOf.end() && from >= 1 && from <= to && to <= lines->second &&
              fs::exists(fs::path(sourceRoot) / path);
    if (ok) ++report.sourceLinksResolved;
    else problem("source link to lines that do not exist: " + href);
  };
  bool quoting = false;  // a guide page: the repository's own text
  std::function<void(const docs::ydoc::Json&)> visit = [&](const docs::ydoc::Json& node) {
    std::string type = node.value("type", "");
    if (type == "codeBlock") {
      const auto& attrs = node["attrs"];
      if (attrs.contains("git_url") && attrs["git_url"].is_string()) checkLink(attrs["git_url"].get<std::string>());
      // A guide's own diagrams may use all of mermaid (scripts/mermaid-check.mjs parses
      // them); the subset is what the writers emit.
      if (attrs.contains("language") && attrs["language"] == "mermaid" && !quoting) {
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
      if (code && isDottedIdentifier(text)) {
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
  for (const auto& page : pages) {
    quoting = page.key.rfind("guide:", 0) == 0;
    visit(page.content);
  }
  return report;
}

}  // namespace docs_generation
