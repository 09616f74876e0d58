#include "planning/guides.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/concepts.hpp"
#include "analysis/file_roles.hpp"
#include "writing/markdown_blocks.hpp"
#include "writing/rst_markdown.hpp"

namespace docs_generation {

namespace {

namespace fs = std::filesystem;

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string baseName(const std::string& path) {
  return path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
}

std::string stem(const std::string& path) {
  std::string name = baseName(path);
  return name.substr(0, name.rfind('.'));
}

std::string folderOf(const std::string& path) {
  return path.rfind('/') == std::string::npos ? "" : path.substr(0, path.rfind('/'));
}

// "quick-start" -> "Quick start"; a README is named after its folder.
std::string titleFromName(const std::string& path) {
  std::string name = stem(path);
  if (lower(name) == "readme" || lower(name) == "index") name = baseName(folderOf(path));
  std::string title;
  for (char c : name) title += c == '-' || c == '_' ? ' ' : c;
  if (!title.empty()) title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  return title.empty() ? path : title;
}

bool isDocument(const FileAnalysis& file) { return file.language == "markdown" || file.language == "rst"; }

bool isDocFolder(const std::string& segment) {
  std::string s = lower(segment);
  return s == "docs" || s == "doc" || s == "documentation" || s == "website" || s == "book" || s == "guide" ||
         s == "guides" || s == "manual" || s == "handbook";
}

// Where a file sits in the reading order when the site gives none: the front page,
// then introduction, installation, quick start and tutorials, then the rest, and the
// project's paperwork last.
int nameRank(const std::string& path) {
  std::string name = lower(stem(path));
  if (name == "index" || name == "readme") return folderOf(path).find('/') == std::string::npos ? 0 : 5;
  for (const char* first : {"intro", "overview", "about", "why"})
    if (name.rfind(first, 0) == 0) return 1;
  for (const char* install : {"install", "setup", "requirements"})
    if (name.rfind(install, 0) == 0) return 2;
  for (const char* quick : {"start", "quickstart", "quick-start", "quick_start", "getting-started", "getting_started",
                            "gettingstarted", "first"})
    if (name.rfind(quick, 0) == 0) return 3;
  for (const char* tutorial : {"tutorial", "guide", "usage", "basics"})
    if (name.rfind(tutorial, 0) == 0) return 4;
  for (const char* paper : {"changelog", "changes", "history", "release", "license", "licence", "contributing",
                            "code_of_conduct", "code-of-conduct", "security", "authors", "upgrad", "migrat"})
    if (name.find(paper) != std::string::npos) return 9;
  return 6;
}

// A number from YAML front matter (order, sidebar_position, nav_order, weight); a large
// one when there is none, so ordered pages come first.
long frontMatterOrder(std::string_view text) {
  constexpr long kNone = 1L << 30;
  if (text.rfind("---", 0) != 0) return kNone;
  auto end = text.find("\n---", 3);
  std::string_view head =
      text.substr(0, end == std::string_view::npos ? std::min<std::size_t>(text.size(), 4096) : end);
  for (std::string_view key : {"\norder:", "\nsidebar_position:", "\nnav_order:", "\nweight:"}) {
    auto at = head.find(key);
    if (at == std::string_view::npos) continue;
    std::size_t i = at + key.size();
    while (i < head.size() && head[i] == ' ') ++i;
    bool negative = i < head.size() && head[i] == '-';
    if (negative) ++i;
    long value = 0;
    std::size_t digits = 0;
    for (; i < head.size() && std::isdigit(static_cast<unsigned char>(head[i])) && digits < 9; ++i, ++digits)
      value = value * 10 + (head[i] - '0');
    if (digits) return negative ? -value : value;
  }
  return kNone;
}

// The entries of every `.. toctree::` in a Sphinx page, in order ("install", "api/client").
std::vector<std::string> toctreeEntries(const std::string& rst) {
  std::vector<std::string> out;
  bool inTree = false;
  std::size_t at = 0;
  while (at < rst.size()) {
    auto end = rst.find('\n', at);
    std::string line = rst.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? rst.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = line;
    t.erase(0, t.find_first_not_of(" \t"));
    if (t.rfind(".. toctree::", 0) == 0) {
      inTree = true;
      continue;
    }
    if (!inTree) continue;
    if (!line.empty() && line[0] != ' ' && line[0] != '\t') {
      inTree = false;
      continue;
    }
    if (t.empty() || t[0] == ':') continue;
    // "Title <path>" names the path last.
    if (t.back() == '>' && t.rfind('<') != std::string::npos)
      t = t.substr(t.rfind('<') + 1, t.size() - t.rfind('<') - 2);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
    if (!t.empty() && t.find("://") == std::string::npos && t != "self" && t.find('*') == std::string::npos)
      out.push_back(t);
  }
  return out;
}

std::string firstSegmentOf(const std::string& path) { return path.substr(0, path.find('/')); }

// "docs/a" + "../b/c" -> "docs/b/c" (no climbing above the tree).
std::string joinFolder(const std::string& folder, const std::string& relative) {
  std::vector<std::string> parts;
  std::string combined = folder.empty() ? relative : folder + "/" + relative;
  for (std::size_t at = 0; at <= combined.size();) {
    auto end = combined.find('/', at);
    std::string part = combined.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (end == std::string::npos) break;
    at = end + 1;
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

// The pages named in mkdocs.yml's `nav:` in their order ("docs/" + each .md path).
std::vector<std::string> mkdocsNav(const std::string& yaml) {
  std::vector<std::string> out;
  std::string docsDir = "docs";
  bool inNav = false;
  std::size_t at = 0;
  while (at < yaml.size()) {
    auto end = yaml.find('\n', at);
    std::string line = yaml.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? yaml.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("docs_dir:", 0) == 0) {
      docsDir = line.substr(9);
      docsDir.erase(0, docsDir.find_first_not_of(" \t'\""));
      docsDir.erase(docsDir.find_last_not_of(" \t'\"/") + 1);
    }
    if (line.rfind("nav:", 0) == 0) {
      inNav = true;
      continue;
    }
    if (inNav && !line.empty() && line[0] != ' ' && line[0] != '-' && line[0] != '#') inNav = false;
    if (!inNav) continue;
    // "  - Title: path.md" or "  - path.md"
    auto dot = lower(line).find(".md");
    if (dot == std::string::npos) continue;
    auto start = line.find_last_of(" :'\"", dot);
    std::string path =
        line.substr(start == std::string::npos ? 0 : start + 1, dot + 3 - (start == std::string::npos ? 0 : start + 1));
    if (path.rfind("http", 0) == 0) continue;
    out.push_back(docsDir + "/" + path);
  }
  return out;
}

// The pages of an mdBook's SUMMARY.md in their order: each `[Title](path.md)` link,
// relative to the summary's folder.
std::vector<std::string> mdbookSummary(const std::string& summaryPath, const std::string& markdown) {
  std::vector<std::string> out;
  std::string folder = summaryPath.rfind('/') == std::string::npos ? "" : summaryPath.substr(0, summaryPath.rfind('/'));
  std::size_t at = 0;
  while ((at = markdown.find("](", at)) != std::string::npos) {
    auto close = markdown.find(')', at + 2);
    if (close == std::string::npos) break;
    std::string target = markdown.substr(at + 2, close - at - 2);
    at = close;
    target = target.substr(0, target.find('#'));
    if (target.empty() || target.find("://") != std::string::npos) continue;
    out.push_back(joinFolder(folder, target));
  }
  return out;
}

// The documents a Docusaurus sidebars file names, in order: quoted ids ('intro',
// "guides/setup", id: 'x'), as `docs/<id>.md` or `.mdx` (the caller keeps those that exist).
std::vector<std::string> docusaurusSidebar(const std::string& script) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at < script.size();) {
    char quote = script[at];
    if (quote != '\'' && quote != '"') {
      ++at;
      continue;
    }
    auto close = script.find(quote, at + 1);
    if (close == std::string::npos) break;
    std::string id = script.substr(at + 1, close - at - 1);
    // The key before it: a doc id follows `id:`, a bare string in an `items` list, never
    // `type:`, `label:` or `href:`.
    std::size_t before = script.find_last_not_of(" \t\r\n", at == 0 ? 0 : at - 1);
    std::size_t keyStart = before == std::string::npos ? 0 : script.find_last_of(" \t\r\n{,[", before);
    std::string key = before != std::string::npos && script[before] == ':'
                          ? script.substr(keyStart == std::string::npos ? 0 : keyStart + 1,
                                          before - (keyStart == std::string::npos ? 0 : keyStart + 1))
                          : "";
    bool docId = (key.empty() || key == "id") && !id.empty() && id.find(' ') == std::string::npos &&
                 id.find("://") == std::string::npos && id != "doc" && id != "category" && id != "link" &&
                 id != "autogenerated";
    if (docId) out.push_back("docs/" + id);
    at = close + 1;
  }
  return out;
}

// Papers every repository carries, not guides: its licence and notices.
bool legalDocument(const std::string& name) {
  for (const char* legal : {"license", "licence", "copying", "notice", "patents"})
    if (name.rfind(legal, 0) == 0) return true;
  return false;
}

}  // namespace

std::string readDocumentText(const std::string& root, const std::string& path, std::size_t max) {
  if (root.empty() || path.empty()) return "";
  std::ifstream in(fs::path(root) / path, std::ios::binary);
  std::string text(max, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max));
  text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return text;
}

bool isGuideFile(const FileAnalysis& file) {
  if (file.role != kRoleGuide || !isDocument(file)) return false;
  std::string path = file.path;
  bool topLevel = path.find('/') == std::string::npos;
  std::string name = lower(stem(path));
  // At the root: user guides, FAQs, changelogs, contributing (the README is the first
  // guide, planned apart); not the licence.
  if (topLevel) return name != "readme" && !legalDocument(name);
  std::string first = path.substr(0, path.find('/'));
  if (first.rfind('.', 0) == 0) return false;  // .github/, .changeset/
  // Under a documentation folder anything goes; elsewhere only a folder's README.
  if (isDocFolder(first)) return true;
  for (std::size_t at = 0, next; (next = path.find('/', at)) != std::string::npos; at = next + 1)
    if (isDocFolder(path.substr(at, next - at))) return true;
  return name == "readme";
}

std::string rootReadme(const Analysis& analysis) {
  std::string best;
  for (const auto& f : analysis.files) {
    if (f.path.find('/') != std::string::npos) continue;
    std::string name = lower(f.path);
    if (name == "readme.md" || name == "readme.markdown" || name == "readme.rst") return f.path;
    if (best.empty() && (name == "readme" || name == "readme.txt")) best = f.path;
  }
  return best;
}

std::vector<Guide> planGuides(const Analysis& analysis, const std::string& sourceRoot) {
  std::vector<const FileAnalysis*> files;
  for (const auto& f : analysis.files)
    if (isGuideFile(f)) files.push_back(&f);
  std::unordered_map<std::string, std::size_t> navIndex;
  if (analysis.find("mkdocs.yml") || analysis.find("mkdocs.yaml")) {
    auto nav =
        mkdocsNav(readDocumentText(sourceRoot, analysis.find("mkdocs.yml") ? "mkdocs.yml" : "mkdocs.yaml", 256 * 1024));
    for (std::size_t i = 0; i < nav.size(); ++i) navIndex.emplace(nav[i], i);
  }
  std::map<std::string, const FileAnalysis*> byPath;
  for (const auto* f : files) byPath[f->path] = f;
  // A document a site's navigation names is a guide wherever it is (an mdBook in src/).
  auto named = [&](const std::string& path) {
    if (byPath.count(path)) return true;
    const FileAnalysis* f = analysis.find(path);
    if (!f || f->role != kRoleGuide || !isDocument(*f) || path.rfind('.', 0) == 0) return false;
    files.push_back(f);
    byPath[path] = f;
    return true;
  };
  // mdBook: SUMMARY.md lists the book's pages in reading order.
  for (const auto& f : analysis.files)
    if (lower(baseName(f.path)) == "summary.md" && isDocument(f))
      for (const auto& path : mdbookSummary(f.path, readDocumentText(sourceRoot, f.path, 256 * 1024)))
        if (named(path) && !navIndex.count(path)) navIndex.emplace(path, navIndex.size());
  // Docusaurus: sidebars.js (or .ts) names the docs in order.
  for (const char* sidebars : {"sidebars.js", "sidebars.ts", "website/sidebars.js", "website/sidebars.ts"})
    if (analysis.find(sidebars)) {
      std::string prefix = std::string(sidebars).rfind("website/", 0) == 0 ? "website/" : "";
      for (const auto& id : docusaurusSidebar(readDocumentText(sourceRoot, sidebars, 256 * 1024)))
        for (const std::string& candidate : {prefix + id + ".md", prefix + id + ".mdx", prefix + id + "/index.md"})
          if (named(candidate) && !navIndex.count(candidate)) {
            navIndex.emplace(candidate, navIndex.size());
            break;
          }
    }
  // Sphinx: each folder's index.rst lists its pages in a toctree, in reading order.
  for (const auto* f : files)
    if (lower(baseName(f->path)) == "index.rst") {
      navIndex.emplace(f->path, navIndex.size());  // the index comes before what it lists
      for (const auto& entry : toctreeEntries(readDocumentText(sourceRoot, f->path, 256 * 1024))) {
        std::string path =
            entry.rfind('/', 0) == 0 ? firstSegmentOf(f->path) + entry : joinFolder(folderOf(f->path), entry);
        for (const std::string& candidate : {path + ".rst", path + ".md", path, path + "/index.rst"})
          if (byPath.count(candidate) && !navIndex.count(candidate)) {
            navIndex.emplace(candidate, navIndex.size());
            break;
          }
      }
    }
  // The folder's own page: its index.md or README.md among the guides.
  auto indexOf = [&](const std::string& folder) -> std::string {
    for (const auto& [path, f] : byPath)
      if (folderOf(path) == folder && (lower(stem(path)) == "index" || lower(stem(path)) == "readme")) return path;
    return "";
  };
  auto isIndex = [&](const std::string& path) { return indexOf(folderOf(path)) == path; };

  struct Planned {
    Guide guide;
    std::tuple<std::size_t, long, int, std::string> rank;
  };
  std::map<std::string, std::vector<Planned>> childrenOf;  // parent key -> guides under it
  std::map<std::string, int> titlesUnder;                  // parent key + title -> count
  // The README whole, as the first guide (the overview and Getting started take parts of it).
  if (std::string readme = rootReadme(analysis); !readme.empty()) {
    const FileAnalysis* file = analysis.find(readme);
    if (file && isDocument(*file)) {
      Planned planned;
      planned.guide.path = readme;
      planned.guide.key = "guide:" + readme;
      planned.guide.title = "README";
      planned.rank = {0, 0, -1, readme};
      titlesUnder[planned.guide.parentKey + "\nreadme"] += 1;
      childrenOf[planned.guide.parentKey].push_back(std::move(planned));
    }
  }
  for (const auto* f : files) {
    std::string text = readDocumentText(sourceRoot, f->path, 256 * 1024);
    Planned planned;
    planned.guide.path = f->path;
    planned.guide.key = "guide:" + f->path;
    planned.guide.title = markdownTitle(documentAsMarkdown(f->path, text));
    if (planned.guide.title.empty() || planned.guide.title.size() > 120) planned.guide.title = titleFromName(f->path);
    // The nearest folder above with an index guide holds it; a documentation folder's
    // own front page (docs/index.md) stays a sibling of the rest.
    std::string folder = folderOf(f->path);
    if (isIndex(f->path)) folder = folderOf(folder);
    for (; !folder.empty() && !(folder.find('/') == std::string::npos && isDocFolder(folder));
         folder = folderOf(folder))
      if (auto index = indexOf(folder); !index.empty() && index != f->path) {
        planned.guide.parentKey = "guide:" + index;
        break;
      }
    auto nav = navIndex.find(f->path);
    std::string rankName =
        isIndex(f->path) && folderOf(f->path).find('/') != std::string::npos ? baseName(folderOf(f->path)) : f->path;
    planned.rank = {nav != navIndex.end() ? nav->second : navIndex.size() + 1, frontMatterOrder(text),
                    nameRank(rankName), f->path};
    titlesUnder[planned.guide.parentKey + "\n" + lower(planned.guide.title)] += 1;
    childrenOf[planned.guide.parentKey].push_back(std::move(planned));
  }
  for (auto& [parent, children] : childrenOf)
    std::sort(children.begin(), children.end(), [](const Planned& a, const Planned& b) { return a.rank < b.rank; });

  // Depth first from the Guides page: parents before children, siblings in rank order.
  std::vector<Guide> guides;
  std::vector<std::pair<std::string, std::size_t>> stack = {{"guides", 0}};
  while (!stack.empty() && guides.size() < kMaxGuidePages) {
    auto& [parent, next] = stack.back();
    auto& children = childrenOf[parent];
    if (next >= children.size()) {
      stack.pop_back();
      continue;
    }
    Guide guide = children[next++].guide;
    // Two guides of one title under one parent (every folder's README "Usage") say where they are.
    if (titlesUnder[guide.parentKey + "\n" + lower(guide.title)] > 1 && !folderOf(guide.path).empty())
      guide.title += " (" + folderOf(guide.path) + ")";
    std::string key = guide.key;
    guides.push_back(std::move(guide));
    stack.emplace_back(key, 0);
  }
  return guides;
}

void linkGuidesToTopics(std::vector<Guide>& guides, const Analysis& analysis,
                        const std::map<std::string, std::string>& topicOfFile, const std::string& sourceRoot) {
  // Exported top-level names of library code (long enough to mean something) -> topic.
  std::unordered_map<std::string, std::string> topicOfName;
  std::set<std::string> ambiguous;
  for (const auto& f : analysis.files) {
    if (f.role != kRoleLibrary) continue;
    auto topic = topicOfFile.find(f.path);
    if (topic == topicOfFile.end()) continue;
    for (const auto& s : f.symbols) {
      if (s.name.size() < 4 || !s.scope.empty() || s.name[0] == '_') continue;
      auto [it, added] = topicOfName.emplace(s.name, topic->second);
      if (!added && it->second != topic->second) ambiguous.insert(s.name);
    }
  }
  for (const auto& name : ambiguous) topicOfName.erase(name);
  for (auto& guide : guides) {
    std::string text = readDocumentText(sourceRoot, guide.path);
    std::map<std::string, std::set<std::string>> namesByTopic;
    for (const auto& word : identifierWords(text))
      if (auto found = topicOfName.find(word); found != topicOfName.end()) namesByTopic[found->second].insert(word);
    std::vector<std::pair<std::size_t, std::string>> ranked;
    for (const auto& [topic, names] : namesByTopic) {
      bool inCode = false;
      for (const auto& name : names) inCode = inCode || text.find("`" + name) != std::string::npos;
      if (names.size() >= 2 || inCode) ranked.emplace_back(names.size(), topic);
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    guide.topics.clear();
    for (const auto& [count, topic] : ranked) guide.topics.push_back(topic);
  }
}

bool isGettingStartedTitle(const std::string& title) {
  std::string t = lower(title);
  for (const char* word :
       {"install", "getting started", "get started", "quick start", "quickstart", "quick-start", "usage", "how to use",
        "example", "first steps", "tutorial", "setup", "set up", "basic use", "hello world", "requirements"})
    if (t.find(word) != std::string::npos) return true;
  return false;
}

std::vector<std::string> gettingStartedSections(const std::string& readmeMarkdown) {
  std::vector<std::string> out;
  for (const auto& block : markdownBlocks(readmeMarkdown)) {
    if (block.value("type", "") != "heading") continue;
    std::string title = inlineText(block);
    if (isGettingStartedTitle(title) && std::find(out.begin(), out.end(), title) == out.end()) out.push_back(title);
  }
  return out;
}

}  // namespace docs_generation
