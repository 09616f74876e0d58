#pragma once
// A page's stored Yjs document read back as Markdown or HTML (through core/ydoc).

#include <optional>
#include <string>
#include <string_view>

namespace docs_pages {

enum class ExportFormat { Markdown, Html };

std::optional<ExportFormat> parseExportFormat(std::string_view text);
// A never-written page exports as an empty document. Throws docs::ydoc::YdocError for
// bytes that are not a Yjs update.
std::string exportPage(const std::optional<std::string>& bytes, ExportFormat format);
// Whether bytes decode and apply as a Yjs v1 update.
bool isValidUpdate(std::string_view bytes);

}  // namespace docs_pages
