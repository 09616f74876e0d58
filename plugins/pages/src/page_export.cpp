#include "page_export.hpp"

#include <cstdint>
#include <span>

#include <docs/ydoc/ydoc.hpp>

namespace docs_pages {

namespace {
std::span<const std::uint8_t> asBytes(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}
}  // namespace

std::optional<ExportFormat> parseExportFormat(std::string_view text) {
  if (text == "md" || text == "markdown") return ExportFormat::Markdown;
  if (text == "html") return ExportFormat::Html;
  return std::nullopt;
}

std::string exportPage(const std::optional<std::string>& bytes, ExportFormat format) {
  docs::ydoc::Doc doc;
  if (bytes) doc.applyUpdate(asBytes(*bytes));
  auto pm = docs::ydoc::toProseMirrorJson(doc);
  return format == ExportFormat::Markdown ? docs::ydoc::toMarkdown(pm) : docs::ydoc::toHtml(pm);
}

bool isValidUpdate(std::string_view bytes) {
  try {
    docs::ydoc::Doc doc;
    doc.applyUpdate(asBytes(bytes));
    return !doc.hasPending();
  } catch (const docs::ydoc::YdocError&) {
    return false;
  }
}

}  // namespace docs_pages
