#include "analysis/concept_relations.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "analysis/file_roles.hpp"
#include "analysis/text_scan.hpp"

namespace docs_generation {
namespace {

namespace fs = std::filesystem;

// The lines of a file, read once per file (a few files define all the concepts).
class LineCache {
 public:
  explicit LineCache(std::string root) : root_(std::move(root)) {}
  // Line `n` (1-based), cut to kMaxAnalysedLineBytes; "" past the end.
  const std::string& line(const std::string& path, int n) {
    auto [it, added] = files_.try_emplace(path);
    if (added) {
      std::ifstream in(fs::path(root_) / path, std::ios::binary);
      for (std::string text; std::getline(in, text) && it->second.size() < 200000;) {
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.size() > kMaxAnalysedLineBytes) text.resize(kMaxAnalysedLineBytes);
        it->second.push_back(std::move(text));
      }
    }
    static const std::string none;
    return n >= 1 && static_cast<std::size_t>(n) <= it->second.size() ? it->second[static_cast<std::size_t>(n) - 1]
                                                                      : none;
  }

 private:
  std::string root_;
  std::map<std::string, std::vector<std::string>> files_;
};

// Type names of a piece of text: each identifier, a dotted one by its last part
// (`*gin.Engine` names Engine; `Dispatcher.ComposeInterceptor` names ComposeInterceptor).
std::set<std::string> wordsOf(std::string_view text) {
  std::set<std::string> words;
  for (std::size_t i = 0; i < text.size();) {
    if (!isWordChar(text[i])) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < text.size() &&
           (isWordChar(text[i]) || (text[i] == '.' && i + 1 < text.size() && isWordChar(text[i + 1]))))
      ++i;
    std::string_view word = text.substr(start, i - start);
    auto dot = word.rfind('.');
    words.emplace(dot == std::string_view::npos ? word : word.substr(dot + 1));
  }
  return words;
}

bool exportedName(const std::string& name, const std::string& language) {
  if (name.empty() || name[0] == '_') return false;
  return language != "go" || std::isupper(static_cast<unsigned char>(name[0]));
}

// How a language writes a type's bases on its definition line.
std::vector<std::string_view> baseMarkers(const std::string& language) {
  if (language == "python") return {"("};
  if (language == "javascript" || language == "typescript" || language == "java" || language == "php" ||
      language == "groovy")
    return {"extends", "implements"};
  if (language == "c++" || language == "csharp" || language == "swift" || language == "kotlin" || language == "scala" ||
      language == "objective-c")
    return {":", "extends"};
  return {};  // Go: embedding, seen on the members
}

// What a class or struct definition line names as its bases: after `extends`, a `(` in
// Python's `class A(B):`, or a `:` in C++, C#, Swift and Kotlin.
std::set<std::string> basesOn(const std::string& line, const std::string& name, const std::string& language) {
  auto at = line.find(name);
  if (at == std::string::npos) return {};
  std::string rest = line.substr(at + name.size());
  for (std::string_view marker : baseMarkers(language)) {
    auto found = rest.find(marker);
    if (found == std::string::npos) continue;
    if (marker == ":" && found + 1 < rest.size() && rest[found + 1] == ':') continue;  // a::b
    std::string bases = rest.substr(found + marker.size());
    bases = bases.substr(0, bases.find_first_of("{;="));
    auto words = wordsOf(bases);
    for (const char* keyword : {"public", "private", "protected", "virtual", "extends", "implements", "object"})
      words.erase(keyword);
    return words;
  }
  return {};
}

bool isMemberKind(const std::string& kind) {
  return kind == "member" || kind == "field" || kind == "property" || kind == "variable" || kind == "attribute";
}
bool isCallableKind(const std::string& kind) {
  return kind == "function" || kind == "func" || kind == "method" || kind == "methodSpec";
}

void add(Concept& c, const std::string& kind, const std::string& other) {
  std::pair<std::string, std::string> relation{kind, other};
  if (other != c.name && std::find(c.relations.begin(), c.relations.end(), relation) == c.relations.end() &&
      c.relations.size() < 12)
    c.relations.push_back(std::move(relation));
}

}  // namespace

std::string afterParameters(const std::string& line) {
  auto open = line.find('(');
  if (open == std::string::npos) return "";
  // A Go method's receiver comes before its name: `func (c *Context) JSON(code int) {`.
  if (trim(line.substr(0, open)) == "func") {
    auto close = line.find(')', open);
    open = close == std::string::npos ? std::string::npos : line.find('(', close);
    if (open == std::string::npos) return "";
  }
  int depth = 0;
  for (std::size_t i = open; i < line.size(); ++i) {
    if (line[i] == '(') ++depth;
    else if (line[i] == ')' && --depth == 0) {
      std::string rest = line.substr(i + 1);
      return rest.substr(0, rest.find_first_of("{=;"));  // the body or an initialiser starts
    }
  }
  return "";
}

void findConceptRelations(std::vector<Concept>& concepts, const Analysis& analysis, const std::string& root) {
  if (concepts.empty() || root.empty()) return;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < concepts.size(); ++i) index[concepts[i].name] = i;
  LineCache lines(root);
  for (const auto& f : analysis.files) {
    if (!isLibraryRole(f.role)) continue;
    for (const auto& s : f.symbols) {
      // The concept's own definition: what it extends.
      if (auto own = index.find(s.name); own != index.end() && s.scope.empty() &&
                                         concepts[own->second].file == f.path && concepts[own->second].line == s.line) {
        for (const auto& base : basesOn(lines.line(f.path, s.line), s.name, f.language))
          if (index.count(base)) add(concepts[own->second], "extends", base);
      }
      if (s.scope.empty()) {
        // A top-level function whose definition names a concept after its parameters creates it.
        if (isCallableKind(s.kind) && exportedName(s.name, f.language)) {
          for (const auto& word : wordsOf(afterParameters(lines.line(f.path, s.line))))
            if (auto made = index.find(word); made != index.end()) add(concepts[made->second], "created_by", s.name);
        }
        continue;
      }
      // Members of a concept: Go's scope is "Engine", others "pkg.Engine" or "Engine::x".
      std::string owner =
          s.scope.substr(s.scope.find_last_of(".:") == std::string::npos ? 0 : s.scope.find_last_of(".:") + 1);
      auto holder = index.find(owner);
      if (holder == index.end()) continue;
      const std::string& text = lines.line(f.path, s.line);
      // Python's ctags calls methods members.
      bool callable = isCallableKind(s.kind) || (f.language == "python" && s.kind == "member");
      if (isMemberKind(s.kind) && !callable) {
        for (const auto& word : wordsOf(text.substr(std::min(
                 text.size(), text.find(s.name) == std::string::npos ? 0 : text.find(s.name) + s.name.size()))))
          if (index.count(word)) add(concepts[holder->second], "holds", word);
        // A Go struct embedding another: a member named as the type it is, with no type after it.
        if (index.count(s.name) && f.language == "go") {
          std::string after = text.substr(std::min(
              text.size(), text.find(s.name) == std::string::npos ? text.size() : text.find(s.name) + s.name.size()));
          after = trim(after.substr(0, after.find("//")));
          if (after.empty() || after[0] == '`') add(concepts[holder->second], "embeds", s.name);
        }
      } else if (callable) {
        for (const auto& word : wordsOf(afterParameters(text)))
          if (index.count(word)) add(concepts[holder->second], "returns", word);
      }
    }
  }
}

}  // namespace docs_generation
