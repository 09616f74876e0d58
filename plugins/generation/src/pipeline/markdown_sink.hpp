#pragma once
// `docsd generate`'s sink: each page as a Markdown file under the output folder (index.md,
// topics/, files/, guides/), links between pages relative to the page, and index.json, the
// tree of pages.

#include <map>
#include <string>
#include <vector>

#include "pipeline/page_sink.hpp"

namespace docs_generation {

class MarkdownDirSink final : public PageSink {
 public:
  explicit MarkdownDirSink(std::string outDir);
  void prepare(const std::vector<PageDraft>& pages) override;
  bool wants(const PageDraft&) const override { return true; }
  std::string href(const std::string& fromKey, const std::string& toKey) const override;
  void store(PageDraft& page, const std::function<void(PageDraft&)>& compose) override;
  void finish(const std::vector<PageDraft>& pages) override;

 private:
  std::string outDir_;
  std::map<std::string, std::string> paths_;  // page key -> its file, relative to outDir_
};

// The Markdown file of a page, relative to the output folder.
std::string markdownPath(const std::string& key);

}  // namespace docs_generation
