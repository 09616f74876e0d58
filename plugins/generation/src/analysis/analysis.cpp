#include "analysis/analysis.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "analysis/bounded_json.hpp"
#include "analysis/doc_dialects/rustdoc.hpp"
#include "analysis/entry_points.hpp"
#include "analysis/file_roles.hpp"
#include "analysis/languages/language_rules.hpp"
#include "analysis/process_runner.hpp"
#include "analysis/syntax/declarations.hpp"
#include "analysis/text_scan.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace docs_generation {

namespace {

// What ctags runs with: a search path, a home with nothing in it, the C locale; none of
// docsd's own settings or secrets.
const std::vector<std::string>& ctagsEnvironment() {
  static const std::vector<std::string> environment = [] {
    const char* path = std::getenv("PATH");
    return std::vector<std::string>{std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"),
                                    "HOME=/nonexistent", "LC_ALL=C"};
  }();
  return environment;
}

}  // namespace
namespace {

std::string readFile(const fs::path& path, std::size_t max = 2u << 20) {
  std::ifstream in(path, std::ios::binary);
  std::string text(max, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// The lines of a text, each cut to kMaxAnalysedLineBytes: comments, docstrings and imports are
// looked for in that much of a line (numbering is kept).
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t length = end - start;
    if (length > 0 && text[end - 1] == '\r') --length;
    out.push_back(text.substr(start, std::min(length, kMaxAnalysedLineBytes)));
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string validUtf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    // Strict: no overlong forms (C0, C1, E0 80..9F, F0 80..8F), no surrogates (ED A0..BF),
    // nothing past U+10FFFF (F4 90.., F5..FF): what JSON writers and Yjs accept.
    int length = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : (c >> 4) == 14 ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    bool ok = length > 0 && i + length <= text.size();
    for (int k = 1; ok && k < length; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 2;
    if (ok && length > 2) {
      auto second = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xE0 && second < 0xA0) && !(c == 0xED && second >= 0xA0) && !(c == 0xF0 && second < 0x90) &&
           !(c == 0xF4 && second >= 0x90);
    }
    if (ok && c >= 0x20 ? true : ok && (c == '\n' || c == '\t' || c == '\r')) {
      out.append(text, i, static_cast<std::size_t>(length));
      i += static_cast<std::size_t>(length);
    } else {
      out += "\xEF\xBF\xBD";
      i += 1;
    }
  }
  return out;
}

namespace {

bool hasDocstrings(const std::string& language) {
  const LanguageRules* rules = rulesFor(language);
  return rules && rules->docstrings;
}

bool isCommentLine(const std::string& language, const std::string& line, std::string& body) {
  std::string t = trim(line);
  auto strip = [&](std::size_t n) {
    body = trim(t.substr(n));
    return true;
  };
  const LanguageRules* rules = rulesFor(language);
  CommentStyle style = rules ? rules->comments : CommentStyle::Slash;
  if (style == CommentStyle::Hash) {
    if (t.rfind("#!", 0) == 0) return false;
    if (t.rfind('#', 0) == 0) return strip(1);
    return false;
  }
  if (style == CommentStyle::Dash) {
    if (t.rfind("--", 0) == 0) return strip(2);
    return false;
  }
  if (t.rfind("///", 0) == 0 || t.rfind("//!", 0) == 0) return strip(3);
  if (t.rfind("//", 0) == 0) return strip(2);
  if (t.rfind("/**", 0) == 0) return strip(3);
  if (t.rfind("/*", 0) == 0) return strip(2);
  if (t.rfind("*/", 0) == 0) return strip(2);
  if (t.rfind('*', 0) == 0) return strip(1);
  return false;
}

// A comment made only of tool directives (build constraints, type references, linter
// switches, editor modelines) says nothing about what the file is for.
bool isDirectiveLine(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.empty()) return true;
  for (std::string_view directive :
       {"go:",          "+build", "<reference", "eslint-", "eslint ",      "@ts-",    "prettier-ignore",
        "jshint",       "jslint", "istanbul ",  "c8 ",     "noinspection", "pylint:", "type: ignore",
        "nolint",       "vim:",   "-*-",        "@flow",   "@jsx",         "#region", "#endregion",
        "clang-format", "NOLINT", "swiftlint",  "rubocop:"})
    if (line.substr(0, directive.size()) == directive) return true;
  return false;
}

bool isBoilerplate(const std::string& text) {
  for (std::string_view legal : {"copyright", "license", "licence", "spdx", "all rights reserved", "@generated",
                                 "auto-generated", "do not edit", "(mit)", "(bsd)", "(apache"})
    if (findIgnoringCase(text, legal) != std::string_view::npos) return true;
  std::string_view rest = text;
  while (!rest.empty()) {
    auto end = rest.find('\n');
    if (!isDirectiveLine(rest.substr(0, end))) return false;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return true;
}

}  // namespace

std::string purposeBeforeLegalText(const std::string& text) {
  // The lines up to the first legal one ("Formatting library for C++" above the copyright
  // lines of the same comment, in its paragraph or the next).
  std::string kept;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (isBoilerplate(line)) break;
    kept += line + "\n";
  }
  return trim(kept);
}

namespace {

std::string cleanComment(std::string text) {
  for (const char* tail : {"*/", "\"\"\"", "'''"}) {
    auto at = text.find(tail);
    if (at != std::string::npos) text = text.substr(0, at);
  }
  return trim(text);
}

// "@file Parses requests." reads "Parses requests."; a lone "@module router" line goes.
std::string withoutFileTags(const std::string& text) {
  std::string out;
  std::string_view rest = text;
  for (;;) {
    auto end = rest.find('\n');
    std::string line = trim(std::string(rest.substr(0, end)));
    for (std::string_view tag : {"@fileoverview", "@overview", "@file", "@module"})
      if (line.rfind(tag, 0) == 0 && (line.size() == tag.size() || line[tag.size()] == ' ')) {
        line = trim(line.substr(tag.size()));
        // @module names the module first; the name alone is no description.
        if (tag == "@module" && line.find(' ') == std::string::npos) line.clear();
        break;
      }
    if (!line.empty() || (!out.empty() && out.back() != '\n')) out += line + "\n";
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return trim(out);
}

// A Python docstring starting at line index `from` (after a def/class/module start).
std::string docstringAt(const std::vector<std::string>& all, std::size_t from) {
  if (from >= all.size()) return "";
  std::string first = trim(all[from]);
  for (const char* quote : {"\"\"\"", "'''"}) {
    std::string q = quote;
    auto at = first.find(q);
    if (at == std::string::npos || (at > 0 && first.find_first_not_of("rRuUbB") != at)) continue;
    std::string body = first.substr(at + 3);
    auto close = body.find(q);
    if (close != std::string::npos) return trim(body.substr(0, close));
    std::string text = body;
    for (std::size_t i = from + 1; i < all.size() && i < from + 40; ++i) {
      auto end = all[i].find(q);
      if (end != std::string::npos) return trim(text + "\n" + all[i].substr(0, end));
      text += "\n" + all[i];
    }
    return trim(text);
  }
  return "";
}

// The comment block right above line `line` (1-based).
std::string commentAbove(const std::string& language, const std::vector<std::string>& all, int line) {
  std::vector<std::string> parts;
  int i = line - 2;
  // Skip decorators and annotations.
  while (i >= 0) {
    std::string t = trim(all[static_cast<std::size_t>(i)]);
    if (!t.empty() && (t[0] == '@' || t.rfind("#[", 0) == 0 || t.rfind("[[", 0) == 0)) --i;
    else break;
  }
  for (; i >= 0 && parts.size() < 30; --i) {
    std::string body;
    if (!isCommentLine(language, all[static_cast<std::size_t>(i)], body)) break;
    parts.push_back(cleanComment(body));
  }
  std::reverse(parts.begin(), parts.end());
  std::string text;
  for (const auto& p : parts) {
    if (p.rfind("@", 0) == 0 || p.rfind("\\", 0) == 0) break;  // @param, \brief blocks end the summary
    text += (text.empty() ? "" : "\n") + p;
  }
  return trim(text);
}

std::string basenameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
std::string dirnameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}
std::string stem(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path;
  return path.substr(0, dot);
}

std::string normalizePath(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream in(path);
  for (std::string part; std::getline(in, part, '/');) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return "";
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

class ImportResolver {
 public:
  explicit ImportResolver(const std::vector<FileAnalysis>& files) {
    for (const auto& file : files) {
      if (file.documentation || file.build) continue;
      paths_.insert(file.path);
      if (file.language == "go" && !file.path.ends_with("_test.go"))
        goPackages_[dirnameOf(file.path)].push_back(file.path);
      byName_[basenameOf(file.path)].push_back(file.path);
      byStemName_[basenameOf(stem(file.path))].push_back(file.path);
      std::string s = stem(file.path);
      bySuffix_[s].push_back(file.path);
      if (basenameOf(s) == "__init__" || basenameOf(s) == "index" || basenameOf(s) == "mod")
        bySuffix_[dirnameOf(s)].push_back(file.path);
    }
  }

  // Go modules of the tree: go.mod's folder and its `module` path.
  void setGoModules(const std::vector<BuildFile>& builds) {
    for (const auto& build : builds)
      if (build.kind == "go" && !build.name.empty()) goModules_.emplace_back(dirnameOf(build.path), build.name);
  }

  std::string resolve(const FileAnalysis& from, const std::string& raw) const {
    std::string spec = raw;
    if (spec.empty()) return "";
    if (from.language == "go") return resolveGo(spec);
    std::string dir = dirnameOf(from.path);
    const LanguageRules* rules = rulesFor(from.language);
    if (rules && rules->relativeDots && spec[0] == '.') {
      std::size_t dots = spec.find_first_not_of('.');
      std::string rest = dots == std::string::npos ? "" : spec.substr(dots);
      std::string base = dir;
      for (std::size_t k = 1; k < (dots == std::string::npos ? spec.size() : dots); ++k) base = dirnameOf(base);
      std::replace(rest.begin(), rest.end(), '.', '/');
      return byStem(normalizePath(base + "/" + rest));
    }
    if (spec.rfind("./", 0) == 0 || spec.rfind("../", 0) == 0) return byPathOrStem(normalizePath(dir + "/" + spec));
    if (rules && rules->includesFromOwnFolder) {
      if (auto local = byPath(normalizePath(dir + "/" + spec)); !local.empty()) return local;
      return bySuffixMatch(spec, true);
    }
    std::string path = spec;
    if (rules && rules->dottedModules) std::replace(path.begin(), path.end(), '.', '/');
    for (std::size_t at; (at = path.find("::")) != std::string::npos;) path.replace(at, 2, "/");
    if (path.rfind("crate/", 0) == 0) path = path.substr(6);
    if (path.rfind("@/", 0) == 0 || path.rfind("~/", 0) == 0) path = path.substr(2);
    return bySuffixMatch(path, false);
  }

 private:
  std::string byPath(const std::string& path) const { return paths_.count(path) ? path : ""; }
  std::string byStem(const std::string& s) const {
    auto found = bySuffix_.find(s);
    return found == bySuffix_.end() || found->second.empty() ? "" : found->second.front();
  }
  std::string byPathOrStem(const std::string& path) const {
    if (auto exact = byPath(path); !exact.empty()) return exact;
    if (auto named = byStem(path); !named.empty()) return named;  // "./util" for util.ts
    return byStem(stem(path));  // "./util.js" for util.ts: TypeScript's ES module imports
  }
  // The file whose path ends with the import, e.g. "pkg/util" or "include/foo/bar.h"; a
  // Java import "a.b.C" drops trailing segments for members. Candidates come from an
  // index by file name, so a tree of 10,000 files is not scanned per import.
  std::string bySuffixMatch(std::string path, bool withExtension) const {
    for (int attempt = 0; attempt < 3 && !path.empty(); ++attempt) {
      const auto& index = withExtension ? byName_ : byStemName_;
      auto found = index.find(basenameOf(path));
      if (found != index.end()) {
        for (const auto& candidate : found->second) {
          std::string target = withExtension ? candidate : stem(candidate);
          if (target == path ||
              (target.size() > path.size() && target.compare(target.size() - path.size(), path.size(), path) == 0 &&
               target[target.size() - path.size() - 1] == '/'))
            return candidate;
        }
      }
      if (!withExtension) {
        auto package = bySuffix_.find(path);
        if (package != bySuffix_.end() && !package->second.empty()) return package->second.front();
      }
      path = dirnameOf(path);
    }
    return "";
  }

  // A Go import is a package path: the standard library's (no dot in its first element)
  // and other modules' are never this tree's; a path under one of the tree's modules is
  // that package's folder (a file of it stands for the package).
  std::string resolveGo(const std::string& spec) const {
    for (const auto& [folder, module] : goModules_) {
      if (spec != module && spec.rfind(module + "/", 0) != 0) continue;
      std::string inside = spec == module ? "" : spec.substr(module.size() + 1);
      std::string package = folder.empty() ? inside : inside.empty() ? folder : folder + "/" + inside;
      auto found = goPackages_.find(package);
      return found == goPackages_.end() ? "" : packageFile(found->second, spec);
    }
    // Without go.mod (a GOPATH tree): a path with a host in it may be this tree's folder.
    std::string first = spec.substr(0, spec.find('/'));
    if (!goModules_.empty() || first.find('.') == std::string::npos) return "";
    for (std::string tail = spec; !tail.empty();) {
      for (const auto& [package, files] : goPackages_)
        if (package == tail || package.ends_with("/" + tail)) return packageFile(files, spec);
      auto slash = tail.find('/');
      if (slash == std::string::npos || std::count(tail.begin(), tail.end(), '/') < 2) break;
      tail = tail.substr(slash + 1);  // github.com/o/r/sub -> o/r/sub -> r/sub
    }
    return "";
  }

  // The file that stands for a package: the one named after it (cobra.go for
  // github.com/spf13/cobra), else doc.go, else the first.
  static std::string packageFile(const std::vector<std::string>& files, const std::string& spec) {
    std::string name = spec.substr(spec.rfind('/') + 1);
    for (const std::string& wanted : {name + ".go", std::string("doc.go")})
      for (const auto& file : files)
        if (basenameOf(file) == wanted) return file;
    return files.front();
  }

  std::vector<std::pair<std::string, std::string>> goModules_;
  std::map<std::string, std::vector<std::string>> goPackages_;  // a folder -> its Go files (not tests)
  std::set<std::string> paths_;
  std::map<std::string, std::vector<std::string>> bySuffix_;
  std::map<std::string, std::vector<std::string>> byName_;      // "bar.h" -> paths
  std::map<std::string, std::vector<std::string>> byStemName_;  // "util" -> paths
};

// The first place after an occurrence of `word` where `rest` reads a value; occurrences
// are tried left to right.
template <typename Rest>
std::optional<std::string> firstAfter(std::string_view text, std::string_view word, Rest rest,
                                      bool ignoreCase = false) {
  auto find = [&](std::size_t from) { return ignoreCase ? findIgnoringCase(text, word, from) : text.find(word, from); };
  for (std::size_t at = find(0); at != std::string_view::npos; at = find(at + 1)) {
    Cursor cursor(text, at + word.size());
    std::string value;
    if (rest(cursor, value)) return value;
  }
  return std::nullopt;
}

// A string member of a JSON object, "" when absent or of another type.
std::string stringMember(const json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

BuildFile readBuildFile(const std::string& root, const std::string& path) {
  return readBuildText(path, readFile(fs::path(root) / path, 1 << 20));
}

std::string readmeOpening(const std::string& text) {
  std::string out;
  bool inCode = false;
  for (const auto& line : lines(text)) {
    std::string t = trim(line);
    if (t.rfind("```", 0) == 0) {
      inCode = !inCode;
      continue;
    }
    if (inCode || t.empty() || t[0] == '#' || t[0] == '[' || t[0] == '!' || t[0] == '<' || t[0] == '|' || t[0] == '=' ||
        t[0] == '-') {
      if (!out.empty() && t.empty()) break;  // the first paragraph of prose is enough
      continue;
    }
    out += (out.empty() ? "" : " ") + t;
    if (out.size() > 1500) break;
  }
  return firstSentences(out, 1200);
}

}  // namespace

BuildFile readBuildText(const std::string& path, const std::string& text) {
  BuildFile build;
  build.path = path;
  std::string name = basenameOf(path);
  auto nameChars = wordOr(".-");
  if (name == "package.json") {
    build.kind = "npm";
    json package = parseBoundedJson(text);
    if (package.is_object()) {
      build.name = stringMember(package, "name");
      build.description = stringMember(package, "description");
      if (auto scripts = package.find("scripts"); scripts != package.end() && scripts->is_object())
        for (auto& [key, value] : scripts->items())
          if (value.is_string() && build.facts.size() < 30)
            build.facts.push_back("script `" + key + "`: " + value.get<std::string>());
      for (const char* field : {"dependencies", "devDependencies"})
        if (auto found = package.find(field); found != package.end() && found->is_object())
          build.facts.push_back(std::to_string(found->size()) + " " + field);
      if (auto main = stringMember(package, "main"); !main.empty()) build.facts.push_back("main: " + main);
    }
  } else if (name == "CMakeLists.txt") {
    build.kind = "cmake";
    // project(name ...), add_executable(name ...), add_library(name ...), any case.
    auto call = [](auto chars) {
      return [chars](Cursor& c, std::string& value) {
        return c.spaces() && c.literal("(") && c.spaces() && c.take(chars, value);
      };
    };
    // The command, never a word of a comment ("# the project (foo) needs ..."): comments
    // are blanked first, and `project` must start a command.
    std::string code(text);
    for (std::size_t at = 0; at < code.size();) {
      auto hash = code.find('#', at);
      if (hash == std::string::npos) break;
      auto end = code.find('\n', hash);
      std::fill(code.begin() + static_cast<std::ptrdiff_t>(hash),
                end == std::string::npos ? code.end() : code.begin() + static_cast<std::ptrdiff_t>(end), ' ');
      at = end == std::string::npos ? code.size() : end;
    }
    for (auto at = findIgnoringCase(code, "project"); at != std::string_view::npos && build.name.empty();
         at = findIgnoringCase(code, "project", at + 1)) {
      if (at > 0 && !std::isspace(static_cast<unsigned char>(code[at - 1]))) continue;
      Cursor cursor(code, at + 7);
      std::string value;
      if (call(nameChars)(cursor, value)) build.name = value;
    }
    std::vector<std::pair<std::size_t, std::string>> targets;  // position, fact
    for (std::string_view command : {"add_executable", "add_library"})
      for (auto at = findIgnoringCase(text, command); at != std::string_view::npos && targets.size() < 60;
           at = findIgnoringCase(text, command, at + 1)) {
        Cursor cursor(text, at + command.size());
        std::string target;
        if (call(wordOr(".:-"))(cursor, target))
          targets.emplace_back(at, std::string(command == "add_executable" ? "executable " : "library ") + target);
      }
    std::sort(targets.begin(), targets.end());
    for (std::size_t i = 0; i < targets.size() && build.facts.size() < 30; ++i)
      build.facts.push_back(targets[i].second);
  } else if (name == "pyproject.toml" || name == "setup.py" || name == "setup.cfg") {
    build.kind = "python";
    // name = "x" / name: x / name="x"; description = "..."
    if (auto found = firstAfter(text, "name", [&](Cursor& c, std::string& value) {
          if (!(c.spaces() && c.oneOf("=:") && c.spaces())) return false;
          Cursor unquoted = c;
          if (c.oneOf("\"'") && c.take(nameChars, value)) return true;
          return unquoted.take(nameChars, value);
        }))
      build.name = *found;
    if (auto found = firstAfter(text, "description", [](Cursor& c, std::string& value) {
          return c.spaces() && c.oneOf("=:") && c.spaces() && c.oneOf("\"'") && c.take(noneOf("\"'\n"), value);
        }))
      build.description = *found;
  } else if (name == "go.mod") {
    build.kind = "go";
    if (auto found = firstAfter(text, "module", [](Cursor& c, std::string& value) {
          return c.spaces(true) && c.take([](char ch) { return !isSpace(ch); }, value);
        }))
      build.name = *found;
  } else if (name == "Cargo.toml") {
    build.kind = "cargo";
    auto quoted = [](Cursor& c, std::string& value) {
      return c.spaces() && c.literal("=") && c.spaces() && c.literal("\"") && c.take(noneOf("\""), value);
    };
    if (auto found = firstAfter(text, "name", quoted)) build.name = *found;
    if (auto found = firstAfter(text, "description", quoted)) build.description = *found;
  } else {
    build.kind = name;
  }
  build.name = validUtf8(build.name);
  build.description = validUtf8(build.description);
  for (auto& fact : build.facts) fact = validUtf8(fact);
  return build;
}

void describeFile(FileAnalysis& f, const std::string& text, bool symbolsParsed) {
  f.summary = validUtf8(firstSentences(leadingComment(f.language, text), 400));
  auto all = lines(text);
  for (auto& symbol : f.symbols) {
    if (symbolsParsed) break;
    std::string doc;
    if (hasDocstrings(f.language) && symbol.line > 0) doc = docstringAt(all, static_cast<std::size_t>(symbol.line));
    if (doc.empty() && symbol.line > 0 && static_cast<std::size_t>(symbol.line) <= all.size())
      doc = commentAbove(f.language, all, symbol.line);
    symbol.doc = validUtf8(firstSentences(doc, 300));
  }
  std::sort(f.symbols.begin(), f.symbols.end(), [](const Symbol& a, const Symbol& b) { return a.line < b.line; });
  f.imports = extractImports(f.language, text);
  for (auto& import : f.imports) import = validUtf8(import);
  std::string base = basenameOf(stem(f.path));
  f.entryPoint = base == "main" || base == "__main__" || base == "cli" || base == "app" || base == "server" ||
                 (base == "index" && dirnameOf(f.path).find('/') == std::string::npos) ||
                 std::any_of(f.symbols.begin(), f.symbols.end(),
                             [](const Symbol& s) { return s.name == "main" && s.kind == "function"; });
}

std::string firstSentences(const std::string& text, std::size_t maxChars) {
  // Line breaks and tabs become spaces and runs of spaces one, in one pass.
  std::string flat;
  flat.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
    flat += c;
  }
  flat = trim(flat);
  if (flat.size() <= maxChars) return flat;
  auto cut = flat.rfind(". ", maxChars);
  if (cut != std::string::npos && cut > maxChars / 3) return flat.substr(0, cut + 1);
  cut = flat.rfind(' ', maxChars);
  return flat.substr(0, cut == std::string::npos ? maxChars : cut) + "...";
}

std::vector<std::string> extractImports(const std::string& language, const std::string& text) {
  const LanguageRules* rules = rulesFor(language);
  if (!rules || rules->imports.empty()) return {};
  std::vector<std::string> imports;
  std::set<std::string> seen;
  bool inImportBlock = false;
  for (std::size_t start = 0, end = 0; start < text.size(); start = end + 1) {
    end = std::min(text.find('\n', start), text.size());
    // A longer line is data or generated code; cut, it would give a wrong name.
    if (end - start > kMaxAnalysedLineBytes) continue;
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (rules->importBlocks) {
      std::string t = trim(line);
      if (t.rfind("import (", 0) == 0) {
        inImportBlock = true;
        continue;
      }
      if (inImportBlock && t == ")") {
        inImportBlock = false;
        continue;
      }
      if (!inImportBlock && t.rfind("import ", 0) != 0) continue;
    }
    for (auto pattern : rules->imports) {
      auto found = pattern(line);
      if (!found) continue;
      std::string value = rules->normalise ? rules->normalise(std::move(*found), line) : std::move(*found);
      if (seen.insert(value).second) imports.push_back(value);
    }
    if (imports.size() >= 200) break;
  }
  return imports;
}

std::string leadingComment(const std::string& language, const std::string& source) {
  auto all = lines(source);
  std::size_t i = 0;
  while (i < all.size() &&
         (trim(all[i]).empty() || trim(all[i]).rfind("#!", 0) == 0 || trim(all[i]).rfind("# -*-", 0) == 0 ||
          trim(all[i]).rfind("'use strict'", 0) == 0 || trim(all[i]).rfind("\"use strict\"", 0) == 0 ||
          trim(all[i]).rfind("#pragma once", 0) == 0 || trim(all[i]).rfind("package ", 0) == 0))
    ++i;
  // Blocks until one is not boilerplate (a licence header comes first in many files).
  for (int block = 0; block < 3 && i < all.size(); ++block) {
    std::string text;
    if (hasDocstrings(language)) {
      text = docstringAt(all, i);
      if (!text.empty()) {
        if (!isBoilerplate(text)) return text;
        while (i < all.size() && !trim(all[i]).empty()) ++i;
        while (i < all.size() && trim(all[i]).empty()) ++i;
        continue;
      }
    }
    std::vector<std::string> parts;
    std::string body;
    bool inBlock = false;
    for (; i < all.size(); ++i) {
      std::string t = trim(all[i]);
      if (t.rfind("/*", 0) == 0) inBlock = true;
      if (inBlock) {
        std::string inner = t;
        for (const char* prefix : {"/**", "/*!", "/*", "*/", "*"})
          if (inner.rfind(prefix, 0) == 0) {
            inner = inner.substr(std::string(prefix).size());
            break;
          }
        parts.push_back(cleanComment(inner));
        if (t.find("*/") != std::string::npos) {
          ++i;
          break;
        }
        continue;
      }
      if (!isCommentLine(language, all[i], body)) break;
      parts.push_back(cleanComment(body));
    }
    // Directive lines (//go:build, /// <reference ...>) say nothing about the file.
    for (const auto& p : parts)
      if (!isDirectiveLine(p) || p.empty()) text += (text.empty() ? "" : "\n") + p;
    text = trim(text);
    if (text.empty() && parts.empty()) return "";
    if (!text.empty() && isBoilerplate(text)) {
      if (std::string purpose = purposeBeforeLegalText(text); !purpose.empty()) return withoutFileTags(purpose);
    } else if (!text.empty()) {
      // A comment right above a declaration documents that declaration, not the file,
      // unless it says it is the file's (@file, @module, @fileoverview) or what follows
      // is the file's preamble (package clause, imports, includes).
      if (i < all.size() && !hasDocstrings(language)) {
        std::string next = trim(all[i]);
        bool preamble = next.empty();
        for (const char* start : {"package ", "import ", "import{", "from ", "#include", "#import", "#pragma", "using ",
                                  "require(", "'use strict'", "\"use strict\"", "module ", "namespace ", "const ",
                                  "var ", "let ", "export {", "export * "})
          preamble = preamble || next.rfind(start, 0) == 0;
        bool declaresFile = text.find("@file") != std::string::npos || text.find("@module") != std::string::npos ||
                            text.find("@overview") != std::string::npos ||
                            text.find("@fileoverview") != std::string::npos;
        bool requireLine = next.find("require(") != std::string::npos;
        if (!preamble && !declaresFile && !requireLine) return "";
        // `const x = ...` right under the comment is documented by it, unless it is an import.
        if (!declaresFile &&
            (next.rfind("const ", 0) == 0 || next.rfind("var ", 0) == 0 || next.rfind("let ", 0) == 0) &&
            !requireLine && next.find(" from ") == std::string::npos)
          return "";
      }
      return withoutFileTags(text);
    }
    while (i < all.size() && trim(all[i]).empty()) ++i;
  }
  return "";
}

const FileAnalysis* Analysis::find(const std::string& path) const {
  auto found = std::lower_bound(files.begin(), files.end(), path,
                                [](const FileAnalysis& f, const std::string& p) { return f.path < p; });
  return found != files.end() && found->path == path ? &*found : nullptr;
}

namespace {
// Appends `"key":value` to a JSON object being written as text.
template <typename T>
void field(std::string& out, std::string_view key, const T& value, bool first = false) {
  if (!first) out += ',';
  out += '"';
  out += key;
  out += "\":";
  out += json(value).dump();
}
}  // namespace

// Written as text file by file rather than as one json tree: for a thousand files with
// their symbols the tree (and its copies) cost more than the analysis a sync redoes.
std::string Analysis::toJsonText() const {
  std::string out = "{";
  field(out, "name", name, true);
  field(out, "readme", readme);
  field(out, "linesByLanguage", linesByLanguage);
  field(out, "skipped", skipped);
  field(out, "truncated", truncated);
  out += ",\"files\":[";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    if (i) out += ',';
    out += '{';
    field(out, "path", f.path, true);
    field(out, "language", f.language);
    field(out, "lines", f.lines);
    field(out, "bytes", f.bytes);
    field(out, "summary", f.summary);
    if (!f.doc.empty()) field(out, "doc", f.doc);
    out += ",\"symbols\":[";
    for (std::size_t k = 0; k < f.symbols.size(); ++k) {
      const auto& symbol = f.symbols[k];
      if (k) out += ',';
      out += '{';
      field(out, "name", symbol.name, true);
      field(out, "kind", symbol.kind);
      field(out, "scope", symbol.scope);
      field(out, "signature", symbol.signature);
      field(out, "line", symbol.line);
      field(out, "end", symbol.end);
      field(out, "doc", symbol.doc);
      if (!symbol.visibility.empty()) field(out, "visibility", symbol.visibility);
      if (!symbol.summary.empty()) field(out, "summary", symbol.summary);
      if (symbol.markdownDoc) field(out, "markdownDoc", true);
      out += '}';
    }
    out += ']';
    field(out, "imports", f.imports);
    field(out, "dependsOn", f.dependsOn);
    field(out, "usedBy", f.usedBy);
    field(out, "entryPoint", f.entryPoint);
    field(out, "documentation", f.documentation);
    field(out, "build", f.build);
    field(out, "role", f.role);
    out += '}';
  }
  out += "],\"builds\":[";
  for (std::size_t i = 0; i < builds.size(); ++i) {
    const auto& b = builds[i];
    if (i) out += ',';
    out += '{';
    field(out, "path", b.path, true);
    field(out, "kind", b.kind);
    field(out, "name", b.name);
    field(out, "description", b.description);
    field(out, "facts", b.facts);
    out += '}';
  }
  out += "]}";
  return out;
}

Analysis Analysis::fromJson(const json& in) {
  Analysis a;
  a.name = in.value("name", "");
  a.readme = in.value("readme", "");
  a.linesByLanguage = in.value("linesByLanguage", std::map<std::string, std::uint64_t>{});
  a.skipped = in.value("skipped", std::vector<std::string>{});
  a.truncated = in.value("truncated", false);
  for (const auto& f : in.at("files")) {
    FileAnalysis file;
    file.path = f.at("path");
    file.language = f.value("language", "");
    file.lines = f.value("lines", 0ull);
    file.bytes = f.value("bytes", 0ull);
    file.summary = f.value("summary", "");
    file.doc = f.value("doc", "");
    for (const auto& s : f.at("symbols"))
      file.symbols.push_back({s.at("name"), s.value("kind", ""), s.value("scope", ""), s.value("signature", ""),
                              s.value("line", 0), s.value("end", 0), s.value("doc", ""), s.value("visibility", ""),
                              s.value("summary", ""), s.value("markdownDoc", false)});
    file.imports = f.value("imports", std::vector<std::string>{});
    file.dependsOn = f.value("dependsOn", std::vector<std::string>{});
    file.usedBy = f.value("usedBy", std::vector<std::string>{});
    file.entryPoint = f.value("entryPoint", false);
    file.documentation = f.value("documentation", false);
    file.build = f.value("build", false);
    // Analyses written before roles existed: judged by the path alone.
    file.role = f.contains("role") && f["role"].is_string()
                    ? f["role"].get<std::string>()
                    : fileRole({file.path, file.language, file.documentation, file.build, ""});
    a.files.push_back(std::move(file));
  }
  for (const auto& b : in.at("builds"))
    a.builds.push_back({b.at("path"), b.value("kind", ""), b.value("name", ""), b.value("description", ""),
                        b.value("facts", std::vector<std::string>{})});
  return a;
}

namespace {

// Where a re-export's declaration lives, as its language names it: `from './x'` (JS/TS),
// the module path of `pub use crate::a::{B, C}` (Rust); "" when the text names none.
std::string reexportSource(const std::string& language, const std::string& statement) {
  if (language == "rust") {
    std::string path = statement.substr(std::min(statement.size(), statement.find("use ") + 4));
    auto list = path.find("::{");
    return list == std::string::npos ? path.substr(0, path.find(' ')) : path.substr(0, list);
  }
  if (language == "python") {  // from ._client import Client
    if (statement.rfind("from ", 0) != 0) return "";
    std::string rest = statement.substr(5);
    return rest.substr(0, rest.find(' '));
  }
  auto from = statement.rfind(" from ");
  if (from == std::string::npos) return "";
  std::string rest = trim(statement.substr(from + 6));
  if (rest.size() < 2 || (rest[0] != '\'' && rest[0] != '"')) return "";
  auto close = rest.find(rest[0], 1);
  return close == std::string::npos ? "" : rest.substr(1, close - 1);
}

// The name a re-export has where it is declared: `a` of `a as b`, else its own.
std::string reexportedName(const std::string& statement, const std::string& name) {
  auto as = statement.find(" as " + name);
  if (as == std::string::npos) return name;
  std::size_t start = as;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(statement[start - 1])) || statement[start - 1] == '_'))
    --start;
  return statement.substr(start, as - start);
}

}  // namespace

// A parsed file's purpose when no leading comment gives one (a Java file opens with its
// licence, package and imports): its module doc's first sentence, else the summary of its
// main public type (the one named after the file, as Java, C# and Kotlin name them), else
// of its first public type.
std::string purposeFromDeclarations(const FileAnalysis& f) {
  if (!f.doc.empty()) return firstSentences(f.doc, 400);
  std::string stemName = basenameOf(stem(f.path));
  const Symbol* first = nullptr;
  for (const auto& s : f.symbols) {
    if (!s.scope.empty() || s.visibility != "public" || s.summary.empty()) continue;
    bool type = s.kind == "class" || s.kind == "interface" || s.kind == "enum" || s.kind == "struct" ||
                s.kind == "record" || s.kind == "trait" || s.kind == "object" || s.kind == "annotation";
    if (!type) continue;
    if (s.name == stemName) return s.summary;
    if (!first) first = &s;
  }
  return first ? first->summary : "";
}

// The file a Rust `mod name;` in `parent` (inside its inline modules `scope`) loads:
// beside lib.rs, main.rs and mod.rs, else in the folder named after the parent.
std::string rustModuleFile(const std::string& parent, const std::string& scope, const std::string& name,
                           const std::map<std::string, std::size_t>& index) {
  std::string folder = dirnameOf(parent);
  std::string base = basenameOf(stem(parent));
  if (base != "lib" && base != "main" && base != "mod") folder = folder.empty() ? base : folder + "/" + base;
  std::string inner = scope;
  for (std::size_t at; (at = inner.find("::")) != std::string::npos;) inner.replace(at, 2, "/");
  if (!inner.empty()) folder = folder.empty() ? inner : folder + "/" + inner;
  for (const std::string& candidate : {name + ".rs", name + "/mod.rs"}) {
    std::string path = folder.empty() ? candidate : folder + "/" + candidate;
    if (index.count(path)) return path;
  }
  return "";
}

// Rust: what a private (or `#[doc(hidden)]`) `mod x;` declares is not the crate's API;
// rustdoc shows it only where a `pub use` re-exports it. Its file's symbols, and those of
// the modules below it, become private; except `#[macro_export]` macros (exported at the
// crate's root wherever they are) and methods of impls on a public type (they are that
// type's, wherever the impl is: anyhow's `impl Error` in its private `mod error`).
void hidePrivateRustModules(Analysis& analysis, const std::map<std::string, std::size_t>& index) {
  std::vector<std::size_t> pending;
  std::set<std::size_t> hidden;
  for (const auto& f : analysis.files) {
    if (f.language != "rust") continue;
    for (const auto& s : f.symbols)
      if (s.kind == "module" && s.visibility == "private" && s.signature.find('{') == std::string::npos)
        if (auto child = rustModuleFile(f.path, s.scope, s.name, index); !child.empty())
          pending.push_back(index.at(child));
  }
  while (!pending.empty()) {
    std::size_t at = pending.back();
    pending.pop_back();
    if (!hidden.insert(at).second) continue;
    const auto& f = analysis.files[at];
    for (const auto& s : f.symbols)
      if (s.kind == "module")
        if (auto child = rustModuleFile(f.path, s.scope, s.name, index); !child.empty())
          pending.push_back(index.at(child));
  }
  if (hidden.empty()) return;
  // The crate's public types: declared public outside hidden modules, or re-exported.
  std::set<std::string> publicTypes;
  for (std::size_t i = 0; i < analysis.files.size(); ++i) {
    const auto& f = analysis.files[i];
    if (f.language != "rust") continue;
    for (const auto& s : f.symbols)
      if (s.visibility == "public" && s.scope.empty() &&
          (s.kind == "reexport" ? !hidden.count(i)
                                : !hidden.count(i) && (s.kind == "struct" || s.kind == "enum" || s.kind == "union" ||
                                                       s.kind == "trait" || s.kind == "type")))
        publicTypes.insert(s.name);
  }
  for (std::size_t at : hidden)
    for (auto& s : analysis.files[at].symbols) {
      bool exportedMacro = s.kind == "macro" && s.visibility == "public";
      bool methodOfPublicType = s.kind == "method" && s.visibility == "public" && publicTypes.count(s.scope) > 0;
      // Re-exported (`pub use self::error::Error;`): rustdoc shows it whole where it is
      // exported; here it stays documented where it is declared.
      bool reexported =
          s.scope.empty() && s.visibility == "public" && s.kind != "reexport" && publicTypes.count(s.name) > 0;
      if (!exportedMacro && !methodOfPublicType && !reexported) s.visibility = "private";
    }
}

// Re-exports carry the doc of what they export (its declaration in the file they name),
// so a library's entry shows its API with its purposes.
void documentReexports(Analysis& analysis, const std::map<std::string, std::size_t>& index,
                       const ImportResolver& resolver) {
  // Packages re-export from packages: a few passes let a name found below be found above.
  for (int pass = 0; pass < 3; ++pass)
    for (auto& f : analysis.files) {
      for (auto& s : f.symbols) {
        if (s.kind != "reexport" || s.markdownDoc) continue;
        if (s.signature == kWildcardReexport) {
          // Which of the package's `from .x import *` modules declares it.
          for (const auto& import : f.imports) {
            if (import.empty() || import[0] != '.') continue;
            auto found = index.find(resolver.resolve(f, import));
            if (found == index.end() || found->second >= analysis.files.size()) continue;
            const auto& declaring = analysis.files[found->second];
            // Declared there, or re-exported there in turn (`_transports/__init__.py`'s own
            // `from .asgi import *`), once that one is found.
            auto declared = std::find_if(declaring.symbols.begin(), declaring.symbols.end(), [&](const Symbol& d) {
              return d.name == s.name && d.scope.empty() && (d.kind != "reexport" || d.signature != kWildcardReexport);
            });
            if (declared == declaring.symbols.end()) continue;
            s.signature = "from " + import + " import " + s.name;
            s.doc = declared->doc;
            s.summary = declared->summary;
            s.markdownDoc = declared->markdownDoc;
            break;
          }
          continue;
        }
        std::string source = reexportSource(f.language, s.signature);
        if (source.empty()) continue;
        std::string target = resolver.resolve(f, source);
        if (target == f.path && f.language == "rust") target = resolver.resolve(f, source + "::" + s.name);
        auto found = index.find(target);
        if (found == index.end() || target == f.path) continue;
        std::string original = reexportedName(s.signature, s.name);
        for (const auto& declared : analysis.files[found->second].symbols) {
          if (declared.name != original || !declared.scope.empty() || declared.kind == "reexport") continue;
          s.doc = declared.doc;
          s.summary = declared.summary;
          s.markdownDoc = declared.markdownDoc;
          break;
        }
      }
    }
}

Analysis analyze(const std::string& root, const Inventory& inventory, const AnalysisOptions& options,
                 const std::function<void(std::size_t, std::size_t)>& progress) {
  Analysis analysis;
  analysis.name = fs::path(root).filename().string();
  analysis.skipped = inventory.skipped;
  analysis.truncated = inventory.truncated;
  std::map<std::string, std::size_t> index;
  for (const auto& file : inventory.files) {
    FileAnalysis f;
    f.path = file.path;
    f.language = file.language;
    f.lines = file.lines;
    f.bytes = file.bytes;
    f.documentation = file.documentation;
    f.build = file.build;
    index[f.path] = analysis.files.size();
    analysis.files.push_back(std::move(f));
    if (!file.language.empty() && !file.documentation) analysis.linesByLanguage[file.language] += file.lines;
  }

  // Files an incremental run keeps as they were.
  std::map<std::string, const FileAnalysis*> reused;
  if (options.previous && options.changed)
    for (const auto& old : options.previous->files)
      if (!options.changed->count(old.path) && index.count(old.path)) reused[old.path] = &old;

  // Symbols from ctags, in batches of files (paths relative to the root).
  // Languages with a parser here (analysis/syntax) are read by it; the rest by ctags.
  std::vector<std::string> codeFiles;
  std::vector<std::size_t> parsedFiles;
  for (std::size_t i = 0; i < analysis.files.size(); ++i) {
    const auto& f = analysis.files[i];
    if (reused.count(f.path) || f.documentation || f.build || f.language.empty() || f.language == "json" ||
        f.language == "yaml" || f.language == "text" || f.language == "markdown")
      continue;
    if (hasDeclarationReader(f.language)) parsedFiles.push_back(i);
    else codeFiles.push_back(f.path);
  }
  const std::size_t symbolFiles = codeFiles.size() + parsedFiles.size();
  struct Prototype {
    std::size_t file;
    std::string scope;
    std::string name;
    int line;
  };
  std::vector<Prototype> prototypes;
  constexpr std::size_t kBatch = 200;
  for (std::size_t start = 0; start < codeFiles.size(); start += kBatch) {
    // --options=NONE first: ctags would otherwise read .ctags.d/ in the repository (it runs
    // there) and in $HOME, and a repository could forge symbols with its own regexes.
    std::vector<std::string> argv = {options.ctags,
                                     "--options=NONE",
                                     "--output-format=json",
                                     "--fields=+nKSse",
                                     "--sort=no",
                                     "--extras=-F",
                                     "--kinds-C=+p",
                                     "--kinds-C++=+p",
                                     "-f",
                                     "-"};
    // "./" keeps a file named like an option from being read as one.
    for (std::size_t i = start; i < std::min(codeFiles.size(), start + kBatch); ++i)
      argv.push_back("./" + codeFiles[i]);
    auto result = runProcess(argv, root, options.ctagsTimeoutSeconds, 256u << 20, &ctagsEnvironment());
    if (result.timedOut)
      throw CtagsFailed("Universal Ctags took longer than " + std::to_string(options.ctagsTimeoutSeconds) +
                        " s on a batch of files");
    if (result.exitCode != 0 && result.output.empty())
      throw CtagsFailed(result.exitCode < 0
                            ? "Universal Ctags could not be run (" + options.ctags + "; see generation.ctags)"
                            : "Universal Ctags failed with exit code " + std::to_string(result.exitCode));
    std::istringstream in(result.output);
    for (std::string line; std::getline(in, line);) {
      json tag = parseBoundedJson(line);
      if (!tag.is_object() || tag.value("_type", "") != "tag" || !tag.contains("path")) continue;
      std::string tagPath = tag["path"].get<std::string>();
      if (tagPath.rfind("./", 0) == 0) tagPath = tagPath.substr(2);
      auto found = index.find(tagPath);
      if (found == index.end()) continue;
      std::string kind = tag.value("kind", "");
      // Locals, parameters and imports are not part of what a file offers.
      if (kind == "prototype") {
        // Declarations are not listed, but their doc comments document the definitions.
        std::string kindOfScope = tag.value("scopeKind", "");
        bool memberOf =
            kindOfScope != "namespace" && kindOfScope != "package" && kindOfScope != "module" && kindOfScope != "file";
        prototypes.push_back({found->second, memberOf ? validUtf8(tag.value("scope", "")) : std::string(),
                              validUtf8(tag.value("name", "")), tag.value("line", 0)});
        continue;
      }
      if (kind == "local" || kind == "parameter" || kind == "variable" || kind == "import" || kind == "label" ||
          kind == "externvar" || kind == "heading" || kind == "chapter" || kind == "section")
        continue;
      Symbol symbol;
      symbol.name = validUtf8(tag.value("name", ""));
      symbol.kind = kind;
      // Namespaces and packages do not make a symbol a member of something.
      std::string scopeKind = tag.value("scopeKind", "");
      if (scopeKind != "namespace" && scopeKind != "package" && scopeKind != "module" && scopeKind != "file")
        symbol.scope = validUtf8(tag.value("scope", ""));
      symbol.signature = validUtf8(tag.value("signature", ""));
      symbol.line = tag.value("line", 0);
      symbol.end = tag.value("end", symbol.line);
      if (symbol.name.empty() || symbol.name.rfind("__anon", 0) == 0) continue;
      auto& symbols = analysis.files[found->second].symbols;
      if (symbols.size() < 2000) symbols.push_back(std::move(symbol));
    }
    if (progress) progress(std::min(codeFiles.size(), start + kBatch), symbolFiles);
    if (options.onStep) options.onStep("symbols", std::min(codeFiles.size(), start + kBatch), symbolFiles);
  }
  // A parsed language gives its symbols with their whole docs; a file its parser cannot
  // read in time keeps no symbols (ctags did not read it either). Files are parsed by a
  // few threads a chunk at a time (each thread holds one tree); what follows a parse, and
  // the progress and cancellation checks, stay on this thread.
  constexpr std::size_t kParseChunk = 64;
  const std::size_t parseThreads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<std::optional<ParsedFile>> parsed(kParseChunk);
  for (std::size_t chunk = 0; chunk < parsedFiles.size(); chunk += kParseChunk) {
    std::size_t count = std::min(kParseChunk, parsedFiles.size() - chunk);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i; (i = next.fetch_add(1)) < count;) {
        const auto& f = analysis.files[parsedFiles[chunk + i]];
        parsed[i] = readDeclarations(f.language, f.path, readFile(fs::path(root) / f.path));
      }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < std::min(parseThreads, count); ++t) helpers.emplace_back(work);
    work();
    for (auto& helper : helpers) helper.join();
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t k = chunk + i;
      auto& f = analysis.files[parsedFiles[k]];
      std::optional<ParsedFile> declarations = std::move(parsed[i]);
      parsed[i].reset();
      if (declarations) {
        f.symbols = std::move(declarations->symbols);
        f.symbols.shrink_to_fit();  // a reader's vector grew by doubling; the analysis lives long
        for (auto& s : f.symbols) {
          s.name = validUtf8(s.name);
          s.scope = validUtf8(s.scope);
          s.signature = validUtf8(s.signature);
          s.doc = validUtf8(s.doc);
          s.summary = validUtf8(s.summary);
        }
        f.doc = validUtf8(declarations->doc);
        // A module doc kept in another file of the tree (Rust crates include their README).
        if (f.doc.empty() && !declarations->docFile.empty()) {
          std::string target = normalizePath(dirnameOf(f.path) + "/" + declarations->docFile);
          if (!target.empty() && index.count(target))
            f.doc = validUtf8(rustdocMarkdown(readFile(fs::path(root) / target)));
        }
      }
      std::size_t done = codeFiles.size() + k + 1;
      if (done % 50 == 0 || k + 1 == parsedFiles.size()) {
        if (progress) progress(done, symbolFiles);
        if (options.onStep) options.onStep("symbols", done, symbolFiles);
      }
    }
  }

  // Summaries, symbol docs and imports from the text of each file.
  std::size_t read = 0;
  std::set<std::string> declared, goCommands;
  for (auto& f : analysis.files) {
    if (options.onStep && read % 100 == 0) options.onStep("reading", read, analysis.files.size());
    ++read;
    if (f.build) analysis.builds.push_back(readBuildFile(root, f.path));
    if (auto kept = reused.find(f.path); kept != reused.end() && !f.documentation) {
      f.summary = kept->second->summary;
      f.doc = kept->second->doc;
      f.symbols = kept->second->symbols;
      f.imports = kept->second->imports;
      f.entryPoint = kept->second->entryPoint;
      f.role = kept->second->role;
      continue;
    }
    std::string text = readFile(fs::path(root) / f.path);
    f.role = fileRole({f.path, f.language, f.documentation, f.build, std::string_view(text).substr(0, 2048)});
    std::string lower = f.path;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (f.documentation) {
      if (analysis.readme.empty() &&
          (lower == "readme.md" || lower == "readme.rst" || lower == "readme.txt" || lower == "readme"))
        analysis.readme = validUtf8(readmeOpening(text));
      continue;
    }
    describeFile(f, text, hasDeclarationReader(f.language));
    if (f.summary.empty()) f.summary = purposeFromDeclarations(f);
    if (f.language == "go" && isGoMainPackage(text)) goCommands.insert(f.path);
    if (f.build)
      for (const auto& path : declaredEntryPoints(f.path, text)) {
        declared.insert(path);
        declared.insert("src/" + path);  // Python's src layout
      }
  }
  if (options.onStep) options.onStep("reading", analysis.files.size(), analysis.files.size());
  // Entry points: what the packaging declares (and Go commands); only without any such
  // declaration the names (main, cli, index, ...) of library code. Never tests, examples,
  // fuzz targets or benchmarks (which declare binaries of their own: fuzz/Cargo.toml).
  auto harness = [](const std::string& path) {
    for (std::string_view segment : {"fuzz", "fuzzing", "fuzzers", "bench", "benches", "benchmark", "benchmarks"}) {
      std::string folder = std::string(segment) + "/";
      if (path.rfind(folder, 0) == 0 || path.find("/" + folder) != std::string::npos) return true;
    }
    return false;
  };
  bool anyDeclared = false;
  for (const auto& command : goCommands) anyDeclared = anyDeclared || !harness(command);
  for (const auto& f : analysis.files)
    anyDeclared = anyDeclared || (declared.count(f.path) && !f.build && !f.documentation && !harness(f.path));
  for (auto& f : analysis.files) {
    if (reused.count(f.path)) continue;
    bool declaredHere = (declared.count(f.path) || goCommands.count(f.path)) && !f.build && !f.documentation;
    f.entryPoint = f.role != kRoleTest && f.role != kRoleGenerated && f.role != kRoleExample && !harness(f.path) &&
                   (declaredHere || (!anyDeclared && f.entryPoint && f.role == kRoleLibrary));
  }
  // C and C++ put the comments on declarations in headers: carry them to definitions
  // that have none (by name and enclosing scope).
  std::map<std::string, std::string> declarationDocs;
  std::map<std::size_t, std::vector<std::string>> linesOfFile;
  for (const auto& prototype : prototypes) {
    auto& all = linesOfFile[prototype.file];
    if (all.empty()) all = lines(readFile(fs::path(root) / analysis.files[prototype.file].path));
    if (prototype.line <= 0 || static_cast<std::size_t>(prototype.line) > all.size()) continue;
    std::string doc =
        validUtf8(firstSentences(commentAbove(analysis.files[prototype.file].language, all, prototype.line), 300));
    if (!doc.empty()) declarationDocs.emplace(prototype.scope + "::" + prototype.name, doc);
  }
  for (auto& f : analysis.files)
    for (auto& symbol : f.symbols)
      if (symbol.doc.empty())
        if (auto found = declarationDocs.find(symbol.scope + "::" + symbol.name); found != declarationDocs.end())
          symbol.doc = found->second;

  ImportResolver resolver(analysis.files);
  resolver.setGoModules(analysis.builds);
  for (auto& f : analysis.files) {
    std::set<std::string> depends;
    for (const auto& import : f.imports) {
      std::string target = resolver.resolve(f, import);
      if (!target.empty() && target != f.path) depends.insert(target);
    }
    f.dependsOn.assign(depends.begin(), depends.end());
  }
  for (const auto& f : analysis.files)
    for (const auto& target : f.dependsOn)
      if (auto it = index.find(target); it != index.end()) analysis.files[it->second].usedBy.push_back(f.path);
  hidePrivateRustModules(analysis, index);
  documentReexports(analysis, index, resolver);
  for (auto& b : analysis.builds)
    if (!b.name.empty() && b.path.find('/') == std::string::npos) analysis.name = b.name;
  return analysis;
}

}  // namespace docs_generation
