#include "writing/page_writer.hpp"

#include <docs/codec/codec.hpp>
#include <docs/logger.hpp>
#include <docs/ydoc/doc.hpp>
#include <docs/ydoc/error.hpp>
#include <docs/ydoc/prosemirror.hpp>

#include <random>

namespace docs_generation {

using docs::Logger;

namespace {

std::uint64_t serverClientId() {
  static thread_local std::mt19937_64 random(std::random_device{}());
  return (random() & 0xffffffff) | 1;
}

std::optional<std::string> currentBytes(const PageServices& services, std::int64_t pageId) {
  return services.documents->read(pageId);
}

// Applies `change` to the page's current document and hands the difference on.
template <class Change>
bool editPage(const PageServices& services, std::int64_t pageId, Change change) {
  auto bytes = currentBytes(services, pageId);
  if (!bytes) return false;
  docs::ydoc::Doc doc(serverClientId());
  if (!bytes->empty()) doc.applyUpdate(docs::ydoc::Bytes(bytes->begin(), bytes->end()));
  auto before = doc.encodeStateVector();
  change(doc);
  auto update = doc.encodeStateAsUpdate(before);
  return services.documents->apply(
      pageId, std::string_view(reinterpret_cast<const char*>(update.data()), update.size()), std::nullopt);
}

}  // namespace

std::string contentDigest(const nlohmann::json& doc) {
  return docs::codec::sha256Hex(docs::ydoc::toMarkdown(docs::ydoc::normalizeProseMirrorJson(doc)));
}

std::string currentDigest(const PageServices& services, std::int64_t pageId) {
  auto bytes = currentBytes(services, pageId);
  if (!bytes || bytes->empty()) return "";
  try {
    docs::ydoc::Doc doc;
    doc.applyUpdate(docs::ydoc::Bytes(bytes->begin(), bytes->end()));
    return contentDigest(docs::ydoc::toProseMirrorJson(doc));
  } catch (const docs::ydoc::YdocError&) {
    return "";
  }
}

bool replacePageContent(const PageServices& services, std::int64_t pageId, const nlohmann::json& doc) {
  return editPage(services, pageId, [&](docs::ydoc::Doc& target) { docs::ydoc::applyProseMirrorJson(target, doc); });
}

void labelVersion(const PageServices& services, Logger& logger, std::int64_t pageId, const std::string& label) {
  if (!services.history) return;
  try {
    services.history->snapshot(pageId, label);
  } catch (const std::exception& error) {
    logger.warn("page version not recorded", {{"page_id", pageId}, {"label", label}, {"error", error.what()}});
  }
}

bool appendToPage(const PageServices& services, std::int64_t pageId, const nlohmann::json& doc) {
  return editPage(services, pageId, [&](docs::ydoc::Doc& target) { docs::ydoc::appendProseMirrorJson(target, doc); });
}

}  // namespace docs_generation
