// A repository's Markdown (and the same bytes as reStructuredText) as page nodes: any bytes come back as nodes that
// serialise (valid UTF-8, shallow nesting), with no crash, sanitizer report or timeout.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "writing/markdown_blocks.hpp"
#include "writing/rst_markdown.hpp"

namespace {

std::size_t depthOf(const docs::ydoc::Json& node, std::size_t depth = 1) {
  std::size_t deepest = depth;
  if (node.is_structured())
    for (const auto& child : node) deepest = std::max(deepest, depthOf(child, depth + 1));
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  docs_generation::MarkdownOptions options;
  options.link = [](const std::string& href) { return href.size() % 2 ? href : std::string(); };
  options.image = [](const std::string& src) { return src; };
  auto blocks = docs_generation::markdownBlocks(text, options);
  (void)blocks.dump();  // throws (a finding) on text that is not UTF-8
  if (depthOf(blocks) > 200) throw std::runtime_error("nesting not capped");
  (void)docs_generation::markdownTitle(text);
  // The same bytes as reStructuredText.
  auto rst = docs_generation::markdownBlocks(docs_generation::restructuredTextToMarkdown(text), options);
  (void)rst.dump();
  if (depthOf(rst) > 200) throw std::runtime_error("nesting not capped (rst)");
  return 0;
}
