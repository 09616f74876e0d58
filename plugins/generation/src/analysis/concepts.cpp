#include "analysis/concepts.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analysis/concept_relations.hpp"
#include "analysis/doc_dialects/doc_text.hpp"
#include "analysis/file_roles.hpp"

namespace docs_generation {

namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path, std::size_t max = 1 << 20) {
  std::ifstream in(path, std::ios::binary);
  std::string text(max, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

bool candidateKind(const std::string& kind) {
  static const std::set<std::string> kinds = {"class",   "struct", "interface", "enum",     "type",
                                              "typedef", "trait",  "protocol",  "function", "func",
                                              "object",  "alias",  "union"};
  return kinds.count(kind) > 0;
}

bool typeKind(const std::string& kind) { return kind != "function" && kind != "func"; }

// Names too common to tell a reader anything, whatever the library.
bool genericName(const std::string& name) {
  static const std::set<std::string> names = {
      "main", "init", "New", "new", "get", "set", "run", "Run", "Error", "String", "toString", "default", "index",
      "Options", "Config", "test", "setup", "noop", "create", "handler", "Handler", "callback", "value", "data",
      "exports", "module", "options", "opts", "request", "response", "result", "params", "args", "self", "this",
      // the language's own types, which type declarations augment (`interface Array<T>`)
      "Array", "Object", "Promise", "Map", "Set", "Function", "Number", "Boolean", "Symbol", "Date", "RegExp", "JSON",
      "Window", "Buffer"};
  return names.count(name) > 0;
}

bool exported(const Symbol& s, const std::string& language) {
  if (s.name.empty() || s.name[0] == '_') return false;
  // A parser applied the language's own rules (Java's modifiers, Rust's reachability,
  // C++'s detail namespaces): an internal type is never a concept.
  if (!s.visibility.empty()) return s.visibility == "public";
  if (language == "go") return std::isupper(static_cast<unsigned char>(s.name[0])) != 0;
  return true;
}

// The word at `at` is the whole name (not part of a longer identifier).
bool wholeWordAt(const std::string& line, std::size_t at, std::size_t length) {
  return (at == 0 || !identifierChar(line[at - 1])) &&
         (at + length >= line.size() || !identifierChar(line[at + length]));
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && out.size() < 20000) {
    auto end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

bool usedAsCode(const std::string& line, std::size_t at, std::size_t length);

// Up to 8 lines from the first line naming `name` (in a README or guide: only inside a
// fenced code block), trimmed at a blank line after the first.
bool findExcerpt(const std::string& text, const std::string& name, bool fencedOnly, int& lineOut,
                 std::string& excerpt) {
  auto all = linesOf(text);
  bool fenced = false;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& line = all[i];
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (fencedOnly && !fenced) continue;
    if (line.size() > 300) continue;
    for (auto at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
      if (!wholeWordAt(line, at, name.size()) || !usedAsCode(line, at, name.size())) continue;
      std::string out;
      for (std::size_t j = i; j < all.size() && j < i + 8; ++j) {
        auto fence = all[j].find("```");
        if (fence != std::string::npos) break;
        if (j > i && all[j].find_first_not_of(" \t\r") == std::string::npos) break;
        out += all[j] + "\n";
      }
      while (!out.empty() && out.back() == '\n') out.pop_back();
      if (out.empty()) continue;
      lineOut = static_cast<int>(i) + 1;
      excerpt = out;
      return true;
    }
  }
  return false;
}

// The code a Markdown or reStructuredText text shows: fenced and indented blocks and
// `inline code`.
std::string codeOf(const std::string& text) {
  std::string out;
  bool fenced = false;
  for (const auto& line : linesOf(text)) {
    auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && (line.compare(first, 3, "```") == 0 || line.compare(first, 3, "~~~") == 0)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || line.rfind("    ", 0) == 0) {
      out += line + "\n";
      continue;
    }
    for (auto open = line.find('`'); open != std::string::npos;) {
      auto close = line.find('`', open + 1);
      if (close == std::string::npos) break;
      out += line.substr(open + 1, close - open - 1) + "\n";
      open = line.find('`', close + 1);
    }
  }
  return out;
}

// The name used as code: called, constructed, typed or reached into.
bool usedAsCode(const std::string& line, std::size_t at, std::size_t length) {
  std::size_t after = at + length;
  while (after < line.size() && line[after] == ' ') ++after;
  if (after < line.size() &&
      (line[after] == '(' || line[after] == '.' || line[after] == '{' || line[after] == '<' || line[after] == '['))
    return true;
  std::string before = line.substr(0, at);
  while (!before.empty() && before.back() == ' ') before.pop_back();
  for (const char* lead :
       {"new", ":", ".", "extends", "implements", "import", "from", "*", "&", "func", "var", "let", "const"})
    if (before.size() >= std::string(lead).size() &&
        before.compare(before.size() - std::string(lead).size(), std::string::npos, lead) == 0)
      return true;
  return false;
}

}  // namespace

std::unordered_set<std::string> identifierWords(const std::string& text) {
  std::unordered_set<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!identifierChar(text[i])) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < text.size() && identifierChar(text[i])) ++i;
    if (i - start >= 3 && i - start <= 64) words.emplace(text, start, i - start);
  }
  return words;
}

std::vector<Concept> rankConcepts(const Analysis& analysis, const std::string& root, std::size_t max) {
  // Candidates: exported top-level types and functions of library files.
  std::vector<Concept> candidates;
  std::map<std::string, std::size_t> byName;  // a name defined twice counts once (the first)
  for (const auto& f : analysis.files) {
    if (!isLibraryRole(f.role)) continue;
    for (const auto& s : f.symbols) {
      if (!s.scope.empty() || !candidateKind(s.kind) || !exported(s, f.language) || genericName(s.name) ||
          s.name.size() < 3)
        continue;
      // ctags' JavaScript parser calls object literals classes: a real class is capitalised.
      bool script = f.language == "javascript" || f.language == "typescript";
      if (script && typeKind(s.kind) && !std::isupper(static_cast<unsigned char>(s.name[0]))) continue;
      if (byName.count(s.name)) continue;
      byName[s.name] = candidates.size();
      // A doc that is only a link (to a spec, an issue) is no description.
      std::string doc = s.markdownDoc ? doc_text::firstParagraph(s.doc) : s.doc;
      if (doc.rfind("http", 0) == 0 && doc.find(' ') == std::string::npos) doc.clear();
      candidates.push_back({s.name, s.kind, f.path, s.line, s.end, doc, {}, 0, "", 0, "", {}, {}});
    }
  }
  if (candidates.empty()) return {};
  // Who names each: files of the library, examples, guides and the README. Examples and
  // guides show what a user touches, so they weigh more.
  struct Use {
    std::string path;
    int weight;
  };
  std::vector<std::vector<Use>> uses(candidates.size());
  std::unordered_map<std::string, std::string> texts;  // examples and guides, for excerpts
  for (const auto& f : analysis.files) {
    int weight = 0;
    if (isLibraryRole(f.role) && !f.language.empty()) weight = 1;
    else if (f.role == kRoleExample || f.role == kRoleGuide) weight = 3;
    if (weight == 0) continue;
    std::string text = readText(fs::path(root) / f.path);
    // In prose a name like "request" is just a word: guides count what their code shows.
    for (const auto& word : identifierWords(f.role == kRoleGuide ? codeOf(text) : text)) {
      auto found = byName.find(word);
      if (found == byName.end() || candidates[found->second].file == f.path) continue;
      uses[found->second].push_back({f.path, weight});
    }
    if (weight == 3) texts.emplace(f.path, std::move(text));
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto& c = candidates[i];
    for (const auto& use : uses[i]) c.score += use.weight;
    // A documented type is more of a concept than an undocumented helper function.
    if (c.score > 0) c.score += (c.doc.empty() ? 0 : 1) + (typeKind(c.kind) ? 1 : 0);
    std::stable_sort(uses[i].begin(), uses[i].end(), [](const Use& a, const Use& b) { return a.weight > b.weight; });
    for (std::size_t u = 0; u < uses[i].size() && c.usedIn.size() < 12; ++u) c.usedIn.push_back(uses[i][u].path);
  }
  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (candidates[a].score != candidates[b].score) return candidates[a].score > candidates[b].score;
    return candidates[a].name < candidates[b].name;
  });
  // Types are what a library is built from; functions fill in only where types are few.
  std::size_t types = 0;
  for (auto i : order)
    if (typeKind(candidates[i].kind) && candidates[i].score >= 3 && candidates[i].usedIn.size() >= 2) ++types;
  std::vector<Concept> out;
  for (auto i : order) {
    if (out.size() >= max || candidates[i].score < 3 || candidates[i].usedIn.size() < 2) break;
    if (types >= 3 && !typeKind(candidates[i].kind)) continue;
    out.push_back(std::move(candidates[i]));
  }
  // Usage excerpts: an example file's line naming it, else a README or guide code block.
  std::set<std::string> chosen;
  for (const auto& c : out) chosen.insert(c.name);
  for (auto& c : out) {
    for (bool guides : {false, true}) {
      if (!c.example.empty()) break;
      for (const auto& path : c.usedIn) {
        auto text = texts.find(path);
        if (text == texts.end()) continue;
        const auto* f = analysis.find(path);
        bool isGuide = f && f->role == kRoleGuide;
        if (isGuide != guides) continue;
        int line = 0;
        std::string excerpt;
        if (findExcerpt(text->second, c.name, isGuide, line, excerpt)) {
          c.examplePath = path;
          c.exampleLine = line;
          c.example = excerpt;
          break;
        }
      }
    }
    // Related concepts: the others its signature or doc names.
    const auto* f = analysis.find(c.file);
    std::string around = c.doc;
    if (f)
      for (const auto& s : f->symbols)
        if (s.name == c.name || s.scope == c.name) around += " " + s.signature + " " + s.doc;
    auto words = identifierWords(around);
    for (const auto& other : chosen)
      if (other != c.name && words.count(other)) c.related.push_back(other);
  }
  findConceptRelations(out, analysis, root);
  return out;
}

}  // namespace docs_generation
