#pragma once
// Writing generated content into pages after the first run: as an edit merged into the
// page's document (the pages plugin's Documents::apply; open editors see it live). A
// content digest (of the page's Markdown) tells whether a person
// edited a page since generation wrote it.

#include <cstdint>
#include <string>

#include <docs/registry.hpp>
#include <docs/services/documents.hpp>
#include <docs/services/page_history.hpp>
#include <docs/services/pages.hpp>
#include <nlohmann/json.hpp>

namespace docs {
class Logger;
}

namespace docs_generation {

// The services pages are written through, declared by the plugin in configure(): the
// pages plugin's (required), collab's history (used: absent without collab).
struct PageServices {
  docs::ServiceRef<docs::Pages> pages;
  docs::ServiceRef<docs::Documents> documents;
  docs::ServiceRef<docs::PageHistory> history;
};

// sha256 of the Markdown of a ProseMirror doc: equal for equal content, whatever the
// Yjs history behind it.
std::string contentDigest(const nlohmann::json& doc);
// The digest of a page's current document; "" when it has none or it does not decode.
std::string currentDigest(const PageServices& services, std::int64_t pageId);
// Replaces the page's content with `doc`. False when the page is gone.
bool replacePageContent(const PageServices& services, std::int64_t pageId, const nlohmann::json& doc);
// Appends the blocks of `doc` after the page's content. False when the page is gone.
bool appendToPage(const PageServices& services, std::int64_t pageId, const nlohmann::json& doc);
// Records the page's current document as a labelled version in its history (when the
// collab plugin runs), so a reader sees what a generation run or sync changed. A failure
// is logged, never fatal to the run.
void labelVersion(const PageServices& services, docs::Logger& logger, std::int64_t pageId, const std::string& label);

}  // namespace docs_generation
