#include "writing/page_writer.hpp"

#include <docs/codec/codec.hpp>
#include <docs/context.hpp>
#include <docs/logger.hpp>
#include <docs/services/document_editor.hpp>
#include <docs/services/page_history.hpp>
#include <docs/services/pages.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/prosemirror.hpp>


#include <random>

namespace docs::generation {

namespace {

std::uint64_t serverClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

std::optional<std::string> currentBytes(Context& context, std::int64_t pageId) {
  if (auto* editor = context.findService<DocumentEditor>()) return editor->currentState(pageId);
  auto& pages = context.requireService<Pages>();
  if (!pages.find(pageId)) return std::nullopt;
  return pages.content(pageId).value_or(std::string());
}

// Applies `change` to the page's current document and hands the difference on.
template <class Change>
bool editPage(Context& context, std::int64_t pageId, Change change) {
  auto bytes = currentBytes(context, pageId);
  if (!bytes) return false;
  ydoc::Doc doc(serverClientId());
  if (!bytes->empty()) doc.applyUpdate(ydoc::Bytes(bytes->begin(), bytes->end()));
  auto before = doc.encodeStateVector();
  change(doc);
  if (auto* editor = context.findService<DocumentEditor>()) {
    auto update = doc.encodeStateAsUpdate(before);
    return editor->applyUpdate(pageId, std::string_view(reinterpret_cast<const char*>(update.data()), update.size()));
  }
  auto whole = doc.encodeStateAsUpdate();
  return context.requireService<Pages>().setContent(
      pageId, std::string_view(reinterpret_cast<const char*>(whole.data()), whole.size()));
}

}  // namespace

std::string contentDigest(const nlohmann::json& doc) {
  return codec::sha256Hex(ydoc::toMarkdown(ydoc::normalizeProseMirrorJson(doc)));
}

std::string currentDigest(Context& context, std::int64_t pageId) {
  auto bytes = currentBytes(context, pageId);
  if (!bytes || bytes->empty()) return "";
  try {
    ydoc::Doc doc;
    doc.applyUpdate(ydoc::Bytes(bytes->begin(), bytes->end()));
    return contentDigest(ydoc::toProseMirrorJson(doc));
  } catch (const ydoc::YdocError&) {
    return "";
  }
}

bool replacePageContent(Context& context, std::int64_t pageId, const nlohmann::json& doc) {
  return editPage(context, pageId, [&](ydoc::Doc& target) { ydoc::applyProseMirrorJson(target, doc); });
}

void labelVersion(Context& context, std::int64_t pageId, const std::string& label) {
  auto* history = context.findService<PageHistory>();
  if (!history) return;
  try {
    history->snapshot(pageId, label);
  } catch (const std::exception& error) {
    context.logger().warn("page version not recorded", {{"page_id", pageId}, {"label", label}, {"error", error.what()}});
  }
}

bool appendToPage(Context& context, std::int64_t pageId, const nlohmann::json& doc) {
  return editPage(context, pageId, [&](ydoc::Doc& target) { ydoc::appendProseMirrorJson(target, doc); });
}

}  // namespace docs::generation
