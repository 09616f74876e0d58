#include "analysis/inventory.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analysis/bounded_json.hpp"

namespace fs = std::filesystem;

namespace docs_generation {

namespace {

// Folders that hold other people's code or build output.
const std::set<std::string> kSkippedFolders = {
    ".git",    ".hg",         ".svn",        "node_modules", "bower_components",
    "vendor",  "third_party", "thirdparty",  "external",     "dist",
    "build",   "out",         "target",      ".venv",        "venv",
    "env",     "__pycache__", ".tox",        ".mypy_cache",  ".pytest_cache",
    ".idea",   ".vscode",     "coverage",    ".next",        ".nuxt",
    ".gradle", "Pods",        "DerivedData", ".cache",       "site-packages"};

const std::map<std::string, std::string> kByExtension = {{".py", "python"},
                                                         {".pyi", "python"},
                                                         {".js", "javascript"},
                                                         {".mjs", "javascript"},
                                                         {".cjs", "javascript"},
                                                         {".jsx", "javascript"},
                                                         {".ts", "typescript"},
                                                         {".tsx", "typescript"},
                                                         {".mts", "typescript"},
                                                         {".java", "java"},
                                                         {".kt", "kotlin"},
                                                         {".kts", "kotlin"},
                                                         {".scala", "scala"},
                                                         {".go", "go"},
                                                         {".rs", "rust"},
                                                         {".c", "c"},
                                                         {".h", "c"},
                                                         {".cc", "c++"},
                                                         {".cpp", "c++"},
                                                         {".cxx", "c++"},
                                                         {".hpp", "c++"},
                                                         {".hh", "c++"},
                                                         {".hxx", "c++"},
                                                         {".ipp", "c++"},
                                                         {".cs", "csharp"},
                                                         {".php", "php"},
                                                         {".rb", "ruby"},
                                                         {".swift", "swift"},
                                                         {".sql", "sql"},
                                                         {".sh", "bash"},
                                                         {".bash", "bash"},
                                                         {".zsh", "shell"},
                                                         {".ps1", "powershell"},
                                                         {".css", "css"},
                                                         {".scss", "scss"},
                                                         {".html", "html"},
                                                         {".htm", "html"},
                                                         {".xml", "xml"},
                                                         {".json", "json"},
                                                         {".yaml", "yaml"},
                                                         {".yml", "yaml"},
                                                         {".md", "markdown"},
                                                         {".mdx", "markdown"},
                                                         {".markdown", "markdown"},
                                                         {".rst", "rst"},
                                                         {".toml", "toml"},
                                                         {".lua", "lua"},
                                                         {".pl", "perl"},
                                                         {".pm", "perl"},
                                                         {".r", "r"},
                                                         {".dart", "dart"},
                                                         {".ex", "elixir"},
                                                         {".exs", "elixir"},
                                                         {".erl", "erlang"},
                                                         {".hs", "haskell"},
                                                         {".ml", "ocaml"},
                                                         {".clj", "clojure"},
                                                         {".vue", "vue"},
                                                         {".svelte", "svelte"},
                                                         {".proto", "protobuf"},
                                                         {".cmake", "cmake"},
                                                         {".gradle", "groovy"},
                                                         {".groovy", "groovy"},
                                                         {".m", "objective-c"},
                                                         {".mm", "objective-c"},
                                                         {".zig", "zig"},
                                                         {".tf", "terraform"},
                                                         {".txt", "text"},
                                                         {".cfg", "ini"},
                                                         {".ini", "ini"}};

const std::map<std::string, std::string> kByName = {
    {"CMakeLists.txt", "cmake"}, {"Makefile", "make"},         {"makefile", "make"},
    {"GNUmakefile", "make"},     {"Dockerfile", "dockerfile"}, {"Containerfile", "dockerfile"},
    {"Rakefile", "ruby"},        {"Gemfile", "ruby"},          {"BUILD", "starlark"},
    {"BUILD.bazel", "starlark"}, {"WORKSPACE", "starlark"},    {"meson.build", "meson"},
    {"nginx.conf", "nginx"},     {".htaccess", "apache"}};

const std::set<std::string> kBinaryExtensions = {
    ".png",   ".jpg",  ".jpeg", ".gif",    ".webp", ".ico",    ".bmp",     ".tiff", ".pdf",   ".zip",
    ".gz",    ".tgz",  ".bz2",  ".xz",     ".7z",   ".rar",    ".jar",     ".war",  ".class", ".o",
    ".a",     ".so",   ".dll",  ".dylib",  ".exe",  ".bin",    ".wasm",    ".pyc",  ".pyo",   ".woff",
    ".woff2", ".ttf",  ".otf",  ".eot",    ".mp3",  ".mp4",    ".mov",     ".avi",  ".webm",  ".ogg",
    ".wav",   ".flac", ".db",   ".sqlite", ".lock", ".min.js", ".min.css", ".map",  ".svg"};

const std::set<std::string> kBuildFiles = {
    "CMakeLists.txt",   "package.json", "pyproject.toml",   "setup.py",  "setup.cfg",   "go.mod",        "Cargo.toml",
    "pom.xml",          "build.gradle", "build.gradle.kts", "Makefile",  "meson.build", "composer.json", "Gemfile",
    "requirements.txt", "Dockerfile",   "tsconfig.json",    "deno.json", "mix.exs",     "Package.swift"};

std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Build-output folder names that a published npm package may ship as its only code.
const std::set<std::string> kPublishedFolders = {"dist", "build", "out"};

// Every string inside `value`, walked with a stack of our own rather than recursion.
void collectStrings(const nlohmann::json& value, std::vector<std::string>& into) {
  std::vector<const nlohmann::json*> pending = {&value};
  while (!pending.empty() && into.size() < 1000) {
    const nlohmann::json* next = pending.back();
    pending.pop_back();
    if (next->is_string()) into.push_back(next->get<std::string>());
    else if (next->is_object() || next->is_array())
      for (const auto& item : *next) pending.push_back(&item);
  }
}

// The folders (relative to the package) that package.json's main, module and exports
// point into, when every entry is inside a build-output folder and there is no src/:
// then that output is the package's code, not a build of code shipped beside it.
std::vector<std::string> publishedCodeFolders(const std::string& packageJson, bool hasSrc) {
  if (hasSrc) return {};
  auto json = parseBoundedJson(packageJson);
  if (!json.is_object()) return {};
  std::vector<std::string> targets;
  for (const char* key : {"main", "module", "exports"})
    if (json.contains(key)) collectStrings(json[key], targets);
  std::set<std::string> folders;
  for (auto target : targets) {
    if (target.rfind("./", 0) == 0) target.erase(0, 2);
    if (target == "package.json") continue;
    auto slash = target.rfind('/');
    if (slash == std::string::npos || target.find("..") != std::string::npos) return {};  // code at the top
    if (!kPublishedFolders.count(target.substr(0, target.find('/')))) return {};          // code elsewhere
    folders.insert(target.substr(0, slash));
  }
  return {folders.begin(), folders.end()};
}

// Whether `path` leads to, or lies under, one of `folders`.
bool onTheWayTo(const std::string& path, const std::vector<std::string>& folders) {
  for (const auto& folder : folders)
    if (folder == path || folder.rfind(path + "/", 0) == 0 || path.rfind(folder + "/", 0) == 0) return true;
  return false;
}

// A `.h` header written in C++ (namespaces, templates, classes with access sections,
// `std::`): C++ headers share C's extension. A C header's `extern "C"` guard is no sign.
bool looksLikeCpp(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line = std::string_view(text).substr(start, end - start);
    start = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.starts_with("//") || line.starts_with("*") || line.starts_with("/*") || line.starts_with("#")) continue;
    for (std::string_view sign : {"namespace ", "template <", "template<",
                                  "public:", "private:", "protected:", "using namespace ", "extern \"C++\""})
      if (line.starts_with(sign)) return true;
    if (line.find("std::") != std::string_view::npos) return true;
  }
  return false;
}

bool looksBinary(const std::string& head) { return head.find('\0') != std::string::npos; }

// The length of the longest line, in bytes.
std::size_t longestLine(const std::string& text) {
  std::size_t longest = 0, start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    longest = std::max(longest, end - start);
    start = end + 1;
  }
  return longest;
}

}  // namespace

bool globMatch(const std::string& pattern, const std::string& text) {
  // '*' and '?' stay within a path segment, '**' crosses segments. A table filled from
  // the ends backwards (no recursion), so hostile patterns with many stars stay
  // polynomial and use no stack.
  if (pattern.size() > 512 || text.size() > 4096) return false;
  const std::size_t n = pattern.size(), m = text.size();
  // matches[p * (m + 1) + t]: pattern from p matches text from t.
  std::vector<unsigned char> matches((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t p, std::size_t t) -> unsigned char& { return matches[p * (m + 1) + t]; };
  at(n, m) = 1;
  for (std::size_t p = n; p-- > 0;) {
    for (std::size_t t = m + 1; t-- > 0;) {
      bool result = false;
      if (pattern[p] == '*' && p + 1 < n && pattern[p + 1] == '*') {
        std::size_t q = p + 2;
        if (q < n && pattern[q] == '/') ++q;
        result = at(q, t) || (t < m && at(p, t + 1));  // the rest matches here or further on
      } else if (pattern[p] == '*') {
        result = at(p + 1, t) || (t < m && text[t] != '/' && at(p, t + 1));  // within the segment
      } else if (t < m && (pattern[p] == '?' ? text[t] != '/' : pattern[p] == text[t])) {
        result = at(p + 1, t + 1);
      }
      at(p, t) = result ? 1 : 0;
    }
  }
  return at(0, 0) != 0;
}

void IgnoreRules::add(const std::string& baseDir, const std::string& fileText) {
  std::size_t start = 0;
  while (start < fileText.size()) {
    auto end = fileText.find('\n', start);
    std::string line = fileText.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? fileText.size() : end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (rules_.size() >= kMaxRules || line.size() > kMaxPatternBytes) {
      ++dropped_;
      continue;
    }
    Rule rule;
    rule.base = baseDir;
    if (line[0] == '!') {
      rule.negate = true;
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      rule.directoryOnly = true;
      line.pop_back();
    }
    if (!line.empty() && line[0] == '/') {
      rule.anchored = true;
      line.erase(0, 1);
    } else if (line.find('/') != std::string::npos) {
      rule.anchored = true;
    }
    if (line.empty()) continue;
    rule.pattern = line;
    rules_.push_back(std::move(rule));
  }
}

bool IgnoreRules::ignored(const std::string& path, bool isDirectory) const {
  bool result = false;
  for (const auto& rule : rules_) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (!rule.base.empty() && path.rfind(rule.base + "/", 0) != 0) continue;
    std::string relative = rule.base.empty() ? path : path.substr(rule.base.size() + 1);
    bool match = false;
    if (rule.anchored) {
      match = globMatch(rule.pattern, relative);
    } else {
      auto slash = relative.rfind('/');
      match = globMatch(rule.pattern, slash == std::string::npos ? relative : relative.substr(slash + 1));
    }
    if (match) result = !rule.negate;
  }
  return result;
}

std::string languageOf(const std::string& path) {
  auto slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (auto found = kByName.find(name); found != kByName.end()) return found->second;
  if (name.rfind("Dockerfile", 0) == 0) return "dockerfile";
  auto dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  auto found = kByExtension.find(lower(name.substr(dot)));
  return found == kByExtension.end() ? "" : found->second;
}

std::string codeBlockLanguage(const std::string& language) {
  static const std::set<std::string> registered = {
      "javascript", "typescript", "python",     "java",  "c++",  "c",        "csharp",     "php",   "ruby",  "go",
      "rust",       "swift",      "kotlin",     "scala", "sql",  "json",     "xml",        "html",  "yaml",  "bash",
      "sh",         "shell",      "powershell", "css",   "scss", "markdown", "dockerfile", "nginx", "apache"};
  if (registered.count(language)) return language;
  if (language == "cmake" || language == "make" || language == "toml" || language == "ini") return "";
  return "";
}

Inventory takeInventory(const std::string& root, const InventoryLimits& limits) {
  Inventory inventory;
  IgnoreRules rules;
  auto readSmall = [](const fs::path& path, std::size_t max) {
    std::ifstream in(path, std::ios::binary);
    std::string text(max, '\0');
    in.read(text.data(), static_cast<std::streamsize>(max));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
  };
  // Depth-first, folders in name order, .gitignore of each folder read before its entries.
  // `only`: inside a published npm output folder, the sub-folders its entries name.
  struct Pending {
    std::string relative;
    int depth = 0;
    std::vector<std::string> only;
  };
  std::vector<Pending> stack = {{"", 0, {}}};
  std::uint64_t visited = 0;
  while (!stack.empty()) {
    auto [relative, depth, only] = stack.back();
    stack.pop_back();
    fs::path folder = relative.empty() ? fs::path(root) : fs::path(root) / relative;
    std::error_code ec;
    if (fs::exists(folder / ".gitignore", ec)) rules.add(relative, readSmall(folder / ".gitignore", 1 << 20));
    std::vector<std::string> published;
    if (fs::is_regular_file(folder / "package.json", ec))
      for (const auto& sub :
           publishedCodeFolders(readSmall(folder / "package.json", 1 << 20), fs::is_directory(folder / "src", ec)))
        published.push_back(relative.empty() ? sub : relative + "/" + sub);
    std::vector<fs::directory_entry> entries;
    for (const auto& entry : fs::directory_iterator(folder, fs::directory_options::skip_permission_denied, ec))
      entries.push_back(entry);
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() > b.path(); });
    for (const auto& entry : entries) {
      if (limits.checkpoint && ++visited % 256 == 0) limits.checkpoint();
      std::string name = entry.path().filename().string();
      std::string path = relative.empty() ? name : relative + "/" + name;
      auto status = entry.symlink_status(ec);
      if (fs::is_symlink(status)) {
        inventory.skipped.push_back(path + ": symbolic link");
        continue;
      }
      if (fs::is_directory(status)) {
        if (rules.ignored(path, true) || (!only.empty() && !onTheWayTo(path, only))) continue;
        bool publishedCode = kPublishedFolders.count(name) && onTheWayTo(path, published);
        if (kSkippedFolders.count(name) && !publishedCode) continue;
        if (depth + 1 > limits.maxDepth) {
          inventory.skipped.push_back(path + ": nested too deep");
          continue;
        }
        stack.push_back({path, depth + 1, publishedCode ? published : only});
        continue;
      }
      if (!fs::is_regular_file(status) || rules.ignored(path, false)) continue;
      if (inventory.files.size() >= limits.maxFiles) {
        inventory.truncated = true;
        continue;
      }
      std::string lowerName = lower(name);
      bool binaryByName = false;
      for (const auto& extension : kBinaryExtensions)
        if (lowerName.size() > extension.size() &&
            lowerName.compare(lowerName.size() - extension.size(), extension.size(), extension) == 0)
          binaryByName = true;
      if (binaryByName) continue;
      auto bytes = entry.file_size(ec);
      if (bytes > limits.maxFileBytes) {
        inventory.skipped.push_back(path + ": larger than " + std::to_string(limits.maxFileBytes >> 10) + " KB");
        continue;
      }
      std::string text = readSmall(entry.path(), static_cast<std::size_t>(bytes));
      if (looksBinary(text.substr(0, 8192))) continue;
      SourceFile file;
      file.path = path;
      file.bytes = bytes;
      file.lines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) +
                   (text.empty() || text.back() == '\n' ? 0 : 1);
      // Minified or generated: judged by the longest line (one long line among short
      // ones hides from an average). Build files are read whatever their lines.
      if (auto longest = longestLine(text); longest > limits.maxLineBytes && !kBuildFiles.count(name)) {
        inventory.skipped.push_back(path + ": minified or generated (a line of " + std::to_string(longest >> 10) +
                                    " KB)");
        continue;
      }
      file.language = languageOf(path);
      if (file.language == "c" && lowerName.ends_with(".h") && looksLikeCpp(text)) file.language = "c++";
      file.documentation = lowerName.rfind("readme", 0) == 0 || file.language == "markdown" || file.language == "rst";
      file.build = kBuildFiles.count(name) > 0;
      inventory.files.push_back(std::move(file));
    }
  }
  if (rules.dropped() > 0)
    inventory.skipped.push_back(".gitignore: " + std::to_string(rules.dropped()) + " rules over the limit of " +
                                std::to_string(IgnoreRules::kMaxRules) + " (or longer than " +
                                std::to_string(IgnoreRules::kMaxPatternBytes) + " bytes) not applied");
  std::sort(inventory.files.begin(), inventory.files.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return inventory;
}

}  // namespace docs_generation
