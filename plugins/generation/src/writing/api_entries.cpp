#include "writing/api_entries.hpp"

#include <algorithm>
#include <vector>

#include "analysis/inventory.hpp"
#include "writing/myst_markdown.hpp"

namespace docs_generation {

namespace {

std::vector<std::string> segmentsOf(std::string_view dotted) {
  std::vector<std::string> out;
  std::string part;
  for (std::size_t i = 0; i < dotted.size(); ++i) {
    char c = dotted[i];
    if (c == '.' || c == ':' || c == '/') {  // a.b, a::b, a:b (mkdocstrings' object paths)
      if (!part.empty()) out.push_back(std::move(part));
      part.clear();
    } else {
      part += c;
    }
  }
  if (!part.empty()) out.push_back(std::move(part));
  return out;
}

// A file's module path as its language names it: "src/httpx/_client.py" -> httpx _client.
std::vector<std::string> moduleOf(const FileAnalysis& file) {
  std::string path = file.path;
  auto dot = path.rfind('.');
  if (dot != std::string::npos && path.find('/', dot) == std::string::npos) path = path.substr(0, dot);
  auto parts = segmentsOf(path);
  if (!parts.empty() &&
      (parts.back() == "__init__" || parts.back() == "index" || parts.back() == "mod" || parts.back() == "lib"))
    parts.pop_back();
  return parts;
}

// How well `module` (a file's) explains the name's leading segments: the count of the
// file's module segments at the end of `leading`, matched in order from the back.
int moduleMatch(const std::vector<std::string>& module, const std::vector<std::string>& leading) {
  int matched = 0;
  auto m = module.rbegin();
  for (auto l = leading.rbegin(); l != leading.rend() && m != module.rend(); ++l, ++m) {
    if (*l != *m) break;
    ++matched;
  }
  return matched;
}

// A doc's own headings ("# Examples") as bold lines: in a guide, the entry sits under the
// guide's heading and must not open sections of the guide.
std::string headingsAsBold(const std::string& markdown) {
  std::string out;
  bool fence = false;
  std::size_t at = 0;
  while (at < markdown.size()) {
    auto end = markdown.find('\n', at);
    if (end == std::string::npos) end = markdown.size();
    std::string line = markdown.substr(at, end - at);
    at = end + 1;
    if (line.rfind("```", 0) == 0 || line.rfind("~~~", 0) == 0) fence = !fence;
    auto hashes = line.find_first_not_of('#');
    if (!fence && hashes != std::string::npos && hashes > 0 && hashes <= 6 && line[hashes] == ' ')
      line = "**" + line.substr(hashes + 1) + "**";
    out += line + "\n";
  }
  return out;
}

}  // namespace

NamedDeclaration findDeclaration(const Analysis& analysis, std::string_view dottedName) {
  auto parts = segmentsOf(dottedName);
  if (parts.empty()) return {};
  NamedDeclaration best;
  int bestScore = -1;
  for (const auto& file : analysis.files) {
    if (file.documentation || file.symbols.empty()) continue;
    auto module = moduleOf(file);
    // A module itself (`::: httpx._client`): its whole path matches.
    if (moduleMatch(module, parts) == static_cast<int>(parts.size()) && static_cast<int>(parts.size()) > bestScore &&
        parts.size() <= module.size()) {
      best = {&file, nullptr};
      bestScore = static_cast<int>(parts.size());
    }
    for (const auto& symbol : file.symbols) {
      if (symbol.name != parts.back()) continue;
      // Name, then its class (when it has one), then as much of the module as is written.
      std::vector<std::string> leading(parts.begin(), parts.end() - 1);
      int score = 1;
      if (!symbol.scope.empty()) {
        auto scope = segmentsOf(symbol.scope);
        if (leading.size() < scope.size() ||
            !std::equal(scope.begin(), scope.end(), leading.end() - static_cast<std::ptrdiff_t>(scope.size())))
          continue;
        leading.resize(leading.size() - scope.size());
        score += static_cast<int>(scope.size());
      }
      int matched = moduleMatch(module, leading);
      // Names the file does not explain are a package's re-exports (`httpx.Client`).
      score += matched * 2 + (symbol.visibility == "public" ? 1 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = {&file, &symbol};
      }
    }
  }
  return best;
}

std::string withApiEntries(const std::string& markdown, const Analysis& analysis) {
  if (markdown.find("<!-- docs:api ") == std::string::npos) return markdown;
  std::string out;
  std::size_t at = 0;
  while (at < markdown.size()) {
    auto end = markdown.find('\n', at);
    if (end == std::string::npos) end = markdown.size();
    std::string_view line = std::string_view(markdown).substr(at, end - at);
    at = end + 1;
    auto name = apiMarkerName(line);
    if (!name) {
      out.append(line);
      out += '\n';
      continue;
    }
    auto [file, symbol] = findDeclaration(analysis, *name);
    if (!file) {
      out += "`" + *name + "`\n";
      continue;
    }
    if (!symbol) {  // a module: its doc and where it is
      out += "**`" + *name + "`** ([`" + file->path + "`](/" + file->path + "))\n\n";
      if (!file->doc.empty()) out += headingsAsBold(file->doc);
      else if (!file->summary.empty()) out += file->summary + "\n";
      continue;
    }
    out += "```" + codeBlockLanguage(file->language) + "\n" +
           (symbol->signature.empty() ? symbol->name : symbol->signature) + "\n```\n\n";
    if (!symbol->doc.empty()) out += headingsAsBold(symbol->doc) + "\n";
    out += "Defined in [`" + file->path + "`](/" + file->path + ").\n";
  }
  return out;
}

}  // namespace docs_generation
