#include "pipeline/markdown_sink.hpp"

#include <filesystem>
#include <fstream>
#include <utility>

#include <docs/ydoc/prosemirror.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace docs_generation {

std::string markdownPath(const std::string& key) {
  if (key == "overview") return "index.md";
  auto safe = [](std::string text) {
    for (auto& c : text)
      if (c == ':' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    return text;
  };
  if (key.rfind("topic:", 0) == 0) {
    std::string folder = key.substr(6);
    return "topics/" + safe(folder == "." ? "top-level" : folder) + ".md";
  }
  if (key.rfind("file:", 0) == 0) return "files/" + safe(key.substr(5)) + ".md";
  if (key.rfind("guide:", 0) == 0) return "guides/" + safe(key.substr(6)) + ".md";
  return safe(key) + ".md";
}

MarkdownDirSink::MarkdownDirSink(std::string outDir) : outDir_(std::move(outDir)) {}

void MarkdownDirSink::prepare(const std::vector<PageDraft>& pages) {
  fs::create_directories(outDir_);
  for (const auto& page : pages) {
    paths_[page.key] = markdownPath(page.key);
    fs::create_directories((fs::path(outDir_) / paths_[page.key]).parent_path());  // here, not racing in the pool
  }
}

std::string MarkdownDirSink::href(const std::string& fromKey, const std::string& toKey) const {
  auto found = paths_.find(toKey);
  if (found == paths_.end()) return "";
  return fs::path(found->second).lexically_relative(fs::path(paths_.at(fromKey)).parent_path()).generic_string();
}

void MarkdownDirSink::store(PageDraft& page, const std::function<void(PageDraft&)>& compose) {
  compose(page);
  std::ofstream(fs::path(outDir_) / paths_.at(page.key)) << docs::ydoc::toMarkdown(page.content);
}

void MarkdownDirSink::finish(const std::vector<PageDraft>& pages) {
  std::map<std::string, std::vector<std::size_t>> children;
  for (std::size_t i = 0; i < pages.size(); ++i) children[pages[i].parentKey].push_back(i);
  std::function<nlohmann::json(const std::string&)> tree = [&](const std::string& parent) {
    nlohmann::json list = nlohmann::json::array();
    for (auto i : children[parent])
      list.push_back({{"key", pages[i].key},
                      {"title", pages[i].title},
                      {"type", pages[i].type},
                      {"path", paths_[pages[i].key]},
                      {"children", tree(pages[i].key)}});
    return list;
  };
  std::ofstream(fs::path(outDir_) / "index.json") << tree("").dump(2) << "\n";
}

}  // namespace docs_generation
