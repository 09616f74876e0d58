#include "analysis/entry_points.hpp"

#include <cctype>

#include <nlohmann/json.hpp>

#include "analysis/bounded_json.hpp"

namespace docs_generation {

namespace {

std::string dirnameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string basenameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "./bin/cli.js" relative to the build file's folder -> "tools/bin/cli.js".
std::string relativeTo(const std::string& folder, std::string path) {
  while (path.rfind("./", 0) == 0) path = path.substr(2);
  if (path.empty() || path[0] == '/' || path.find("..") != std::string::npos) return "";
  return folder.empty() ? path : folder + "/" + path;
}

void collectStrings(const nlohmann::json& node, std::vector<std::string>& out) {
  // `exports` nests conditions a few levels deep; the depth is bounded by the parser (512)
  // and walked with an explicit stack.
  std::vector<const nlohmann::json*> stack = {&node};
  while (!stack.empty() && out.size() < 200) {
    const auto* at = stack.back();
    stack.pop_back();
    if (at->is_string()) out.push_back(at->get<std::string>());
    else if (at->is_object() || at->is_array())
      for (const auto& child : *at) stack.push_back(&child);
  }
}

std::string trim(const std::string& text) {
  auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// "pkg.cli:main" -> "pkg/cli.py".
std::string moduleFile(std::string target) {
  target = trim(target);
  if (target.size() >= 2 && (target.front() == '"' || target.front() == '\''))
    target = target.substr(1, target.size() - 2);
  auto colon = target.find(':');
  std::string module = trim(target.substr(0, colon));
  if (module.empty()) return "";
  for (char c : module)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return "";
  for (auto& c : module)
    if (c == '.') c = '/';
  return module + ".py";
}

// Lines of one INI/TOML section, by its header ("[project.scripts]").
std::vector<std::string> sectionLines(const std::string& text, const std::string& header) {
  std::vector<std::string> out;
  bool inside = false;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    std::string line = trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? text.size() : end + 1;
    if (!line.empty() && line[0] == '[') {
      inside = line == header;
      continue;
    }
    if (inside && !line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}

}  // namespace

bool isGoMainPackage(const std::string& text) {
  std::size_t start = 0;
  for (int n = 0; n < 400 && start < text.size(); ++n) {
    auto end = text.find('\n', start);
    std::string line = trim(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? text.size() : end + 1;
    if (line.rfind("package ", 0) == 0) return trim(line.substr(8)) == "main";
  }
  return false;
}

std::vector<std::string> declaredEntryPoints(const std::string& buildPath, const std::string& text) {
  std::vector<std::string> out;
  std::string folder = dirnameOf(buildPath);
  std::string name = basenameOf(buildPath);
  if (name == "package.json") {
    auto package = parseBoundedJson(text);
    if (!package.is_object()) return out;
    std::vector<std::string> paths;
    for (const char* field : {"bin", "main", "module", "exports"})
      if (auto found = package.find(field); found != package.end()) collectStrings(*found, paths);
    for (const auto& path : paths)
      if (auto relative = relativeTo(folder, path); !relative.empty()) out.push_back(relative);
  } else if (name == "pyproject.toml" || name == "setup.cfg") {
    std::vector<std::string> lines = name == "pyproject.toml" ? sectionLines(text, "[project.scripts]")
                                                              : sectionLines(text, "[options.entry_points]");
    if (name == "pyproject.toml") {
      auto poetry = sectionLines(text, "[tool.poetry.scripts]");
      lines.insert(lines.end(), poetry.begin(), poetry.end());
    }
    for (const auto& line : lines) {
      auto equals = line.find('=');
      if (equals == std::string::npos) continue;  // "console_scripts =" then indented "name = target" lines
      std::string target = line.substr(equals + 1);
      if (trim(target).empty()) continue;
      if (auto file = moduleFile(target); !file.empty()) out.push_back(relativeTo(folder, file));
    }
  } else if (name == "Cargo.toml") {
    for (const char* main : {"src/main.rs"}) out.push_back(relativeTo(folder, main));
    for (const auto& line : sectionLines(text, "[[bin]]")) {
      if (line.rfind("path", 0) != 0) continue;
      auto quote = line.find('"');
      auto close = quote == std::string::npos ? std::string::npos : line.find('"', quote + 1);
      if (close != std::string::npos) out.push_back(relativeTo(folder, line.substr(quote + 1, close - quote - 1)));
    }
  } else if (name == "CMakeLists.txt") {
    // add_executable(name source ...): the sources are read up to the closing parenthesis.
    for (std::size_t at = text.find("add_executable"); at != std::string::npos && out.size() < 60;
         at = text.find("add_executable", at + 1)) {
      auto open = text.find('(', at);
      auto close = open == std::string::npos ? std::string::npos : text.find(')', open);
      if (close == std::string::npos || close - open > 4000) continue;
      std::string inside = text.substr(open + 1, close - open - 1);
      std::size_t word = 0;
      int index = 0;
      while (word < inside.size()) {
        auto begin = inside.find_first_not_of(" \t\r\n", word);
        if (begin == std::string::npos) break;
        auto end = inside.find_first_of(" \t\r\n", begin);
        std::string token = inside.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        word = end == std::string::npos ? inside.size() : end;
        if (index++ == 0 || token.find('$') != std::string::npos || token == "WIN32" || token == "MACOSX_BUNDLE")
          continue;
        if (auto relative = relativeTo(folder, token); !relative.empty()) out.push_back(relative);
      }
    }
  }
  return out;
}

}  // namespace docs_generation
